#!/usr/bin/python3
"""Emulated UWB dev kits on USB for libusb programs, through umockdev (no kernel USB needed).

Kits:
  dwm3001cdk  Qorvo DWM3001CDK, nRF52833 CDC-ACM (1915:520f): comm interface 0 (interrupt IN
              0x82), data interface 1 (bulk OUT 0x01, bulk IN 0x81), 64-byte full-speed packets,
              raw UCI on the bulk pipes.
  sr150       NXP SR150 EVK behind an FTDI FT230X (0403:6015): FTDI vendor requests, 2 modem
              status bytes at the start of every IN packet, host->board framing
              [0x01][len_hi][len_lo] + UCI packet, board->host raw UCI. With --board-config
              it starts like NXP's SR1xx firmware as NXP's UWB HAL for Android expects it
              (phNxpUciHal_init_hw): CORE_DEVICE_STATUS_NTF with NXP's state 0x00 when the UART
              is configured, every command but the board configuration (GID 0xE, OID 0x00,
              <variant> <version>) refused with REJECTED, nothing from the UWBS passed on; the
              board configuration is answered OK and DEVICE_STATUS_NTF(READY), then the board
              bridges to the UWBS as usual (the host resets it next).

The board's UWB subsystem is a UCI server over TCP (raw UCI stream, google/pica's convention),
e.g. `nearby sim uwbs --listen 127.0.0.1:PORT`: the emulator connects when the host opens the
port (DTR for the CDC-ACM kit, UART configured for the FTDI kit) and bridges the bulk pipes to it.
One TCP connection per plug-in: a replugged board starts with fresh firmware state.

Like the real boards (the Linux cdc_acm / ftdi_sio drivers and the boards' documentation; see
specs/usb-transport.md):
  - the kernel driver (cdc_acm / ftdi_sio) is bound until the host detaches it: claiming, setting
    the configuration, and class requests to its interfaces fail with EBUSY;
  - DWM3001CDK: silent until DTR (bulk OUT NAKs, so writes time out; nothing on IN); dropping DTR
    or a USB reset closes the port and discards queued output; a partial UCI packet is dropped
    after a 100 ms gap; a read buffer smaller than a packet overflows and loses the packet;
  - FT230X: bytes reach the board only at 3,000,000 baud 8N1; IN packets carry 2 status bytes,
    and a status-only packet is sent every latency-timer period when there is no data;
  - unplug (SIGUSR1) ends every pending URB with -ENODEV and makes every later ioctl fail with
    ENODEV; replug (SIGUSR2) adds the board again with the next device address, its kernel
    driver bound again and DTR low.

Usage:
  emulator.py [--kit dwm3001cdk|sr150] [--board-config] [--uci tcp:HOST:PORT] [--bus N]
              [--address N] [--env-file PATH] -- COMMAND [ARGS...]
      Runs COMMAND under the umockdev preload with the emulated board and exits with its status.
      COMMAND gets UMOCKDEV_DIR, LD_PRELOAD and NEARBY_EMULATOR_PID (send SIGUSR1 / SIGUSR2
      there to unplug / replug the board).
  emulator.py [options] --env-file PATH
      Long-lived mode: writes `UMOCKDEV_DIR=...` to PATH (atomically) and serves until SIGTERM;
      run clients with `env $(cat PATH) umockdev-wrapper CMD`.

Every event is logged on stderr as `emulator: <event>` (tests assert on these lines).
"""

import argparse
import contextlib
import errno
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

PRELOAD = "libumockdev-preload.so.0"

# ioctl numbers (LP64, linux/usbdevice_fs.h)
CONTROL = 0xC0185500
RESETEP = 0x80045503
SETINTERFACE = 0x80085504
SETCONFIGURATION = 0x80045505
GETDRIVER = 0x41045508
SUBMITURB = 0x8038550A
DISCARDURB = 0x0000550B
REAPURB = 0x4008550C
REAPURBNDELAY = 0x4008550D
CLAIMINTERFACE = 0x8004550F
RELEASEINTERFACE = 0x80045510
CONNECTINFO = 0x40085511
USBFS_IOCTL = 0xC0105512
RESET = 0x00005514
CLEAR_HALT = 0x80045515
DISCONNECT = 0x00005516
CONNECT = 0x00005517
GET_CAPABILITIES = 0x8004551A
DISCONNECT_CLAIM = 0x8108551B
GET_SPEED = 0x0000551F

CAPS = 0x01 | 0x02 | 0x04 | 0x08 | 0x10  # ZERO_PACKET, BULK_CONTINUATION, NO_PACKET_SIZE_LIM, SG, REAP_AFTER_DISCONNECT
URB_TYPE_INTERRUPT, URB_TYPE_CONTROL, URB_TYPE_BULK = 1, 2, 3
USB_SPEED_FULL = 2
PACKET = 64  # full-speed bulk max packet size


# --quiet-packets: no line per packet (bulk-in/out, uci-*), for load tests at hundreds of packets
# per second; every other event is still logged.
QUIET_PACKETS = False
PACKET_EVENTS = ("bulk-in ", "bulk-out ", "uci-from-uwbs ", "uci-to-uwbs ")


def log(message):
    if QUIET_PACKETS and message.startswith(PACKET_EVENTS):
        return
    sys.stderr.write("emulator: %s\n" % message)
    sys.stderr.flush()


def hexs(data):
    return " ".join("%02x" % b for b in data)


def uci_payload_length(header):
    """Payload length announced by a UCI header (same rules as UCI.UCIPacketFramer)."""
    mt = header[0] >> 5
    if mt == 0:
        return header[2] | header[3] << 8
    if header[1] & 0x80:
        return header[3] << 8 | header[2]
    return header[3]


def string_descriptor(text):
    encoded = text.encode("utf-16-le")
    return bytes([2 + len(encoded), 3]) + encoded


# --------------------------------------------------------------------------------------------
# Kits: descriptors and identity


class Kit:
    name = ""
    vid = 0
    pid = 0
    manufacturer = ""
    product = ""
    serial = ""
    kernel_driver = ""
    interfaces = ()
    endpoints = {}  # endpoint address -> interface number
    device_descriptor = b""
    config_descriptor = b""


class DWM3001CDK(Kit):
    name = "dwm3001cdk"
    vid, pid = 0x1915, 0x520F
    manufacturer = "Nordic Semiconductor"
    product = "nRF52 USB Product"
    serial = "E4C1F0A2B3D5"
    kernel_driver = "cdc_acm"
    interfaces = (0, 1)
    endpoints = {0x82: 0, 0x01: 1, 0x81: 1}
    device_descriptor = bytes.fromhex("12010002ef0201401519" "0f52" "0001" "010203" "01")
    config_descriptor = bytes.fromhex(
        "09024b00020100c032"          # configuration: 75 bytes, 2 interfaces, self powered, 100 mA
        "080b000202020100"            # IAD: interfaces 0-1, CDC ACM
        "090400000102020100"          # interface 0: CDC communication, ACM, AT commands, 1 endpoint
        "0524001001"                  # CDC header 1.10
        "0524010301"                  # call management
        "04240202"                    # ACM capabilities
        "0524060001"                  # union: master 0, slave 1
        "07058203100010"              # EP 0x82 interrupt IN, 16 bytes, 16 ms
        "0904010002" "0a000000"       # interface 1: CDC data, 2 endpoints
        "0705010240000007058102400000"  # EP 0x01 bulk OUT 64, EP 0x81 bulk IN 64
    )


class SR150EVK(Kit):
    name = "sr150"
    vid, pid = 0x0403, 0x6015
    manufacturer = "FTDI"
    product = "FT230X Basic UART"
    serial = "DK0B1S5Q"
    kernel_driver = "ftdi_sio"
    interfaces = (0,)
    endpoints = {0x81: 0, 0x02: 0}
    device_descriptor = bytes.fromhex("12010002000000400304" "1560" "0010" "010203" "01")
    config_descriptor = bytes.fromhex(
        "0902200001010080" "2d"       # configuration: 32 bytes, 1 interface, bus powered, 90 mA
        "0904000002ffffff02"          # interface 0: vendor specific, 2 endpoints
        "07058102400000"              # EP 0x81 bulk IN 64
        "07050202400000"              # EP 0x02 bulk OUT 64
    )


KITS = {"dwm3001cdk": DWM3001CDK, "sr150": SR150EVK}


# --------------------------------------------------------------------------------------------
# The UWB subsystem behind the board: a UCI server over TCP


class UciLink:
    """One TCP connection to the UCI server; bytes from it go to `deliver`."""

    def __init__(self, host, port, deliver):
        self.host, self.port, self.deliver = host, port, deliver
        self.sock = None
        self.closed = False
        self.backlog = bytearray()  # packets the board received before the connection was up
        self.lock = threading.Lock()

    def connect(self):
        deadline = time.monotonic() + 10
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=2)
                break
            except OSError as error:
                if time.monotonic() > deadline or self.closed:
                    log("cannot reach the UCI server tcp:%s:%d: %s" % (self.host, self.port, error))
                    return False
                time.sleep(0.05)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.lock:
            if self.closed:
                sock.close()
                return False
            self.sock = sock
            backlog, self.backlog = bytes(self.backlog), bytearray()
            if backlog:
                sock.sendall(backlog)
        log("uci connected tcp:%s:%d" % (self.host, self.port))
        threading.Thread(target=self._read, args=(sock,), daemon=True).start()
        return True

    def _read(self, sock):
        while True:
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                if not self.closed:
                    log("uci server closed the connection")
                return
            self.deliver(self, data)

    def send(self, data):
        with self.lock:
            sock = self.sock
            if sock is None:
                if not self.closed:
                    self.backlog += data
                return
        try:
            sock.sendall(data)
        except OSError as error:
            log("uci send failed: %s" % error)

    def close(self):
        with self.lock:
            self.closed = True
            sock, self.sock = self.sock, None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()


# --------------------------------------------------------------------------------------------
# One plugged-in board: USB device state, URBs, firmware behaviour


class Urb:
    def __init__(self, data, buffer, fields):
        self.data = data          # IoctlData of the 56-byte URB (kept alive: identity must stay stable)
        self.buffer = buffer      # IoctlData of its buffer (None for a zero-length URB)
        self.addr = data.client_addr
        self.type, self.endpoint, self.length = fields
        self.payload = bytes(buffer.retrieve()) if buffer is not None else b""
        self.submitted = time.monotonic()


class Board:
    """USB device + firmware state for one plug-in (a replug creates a new Board)."""

    def __init__(self, emulator, kit, bus, address):
        self.emulator = emulator
        self.kit = kit
        self.bus, self.address = bus, address
        self.devnode = "/dev/bus/usb/%03d/%03d" % (bus, address)
        self.devpath = "/devices/usb%d/%d-1" % (bus, bus)
        self.syspath = "/sys" + self.devpath
        self.lock = emulator.lock
        self.unplugged = False
        self.driver = {i: kit.kernel_driver for i in kit.interfaces}  # interface -> kernel driver
        self.claimed = {}       # interface -> client (usbfs claims belong to one open file)
        self.pending = []       # submitted URBs not completed yet, in order
        self.done = []          # (urb, status, data) ready to reap, in order
        self.output = bytearray()   # board -> host bytes not yet sent on IN
        self.output_since = None    # when the oldest byte in `output` arrived
        self.link = None
        self.link_requested = False

    # ---- helpers ----

    def complete(self, urb, status, data=b"", accepted=0):
        """Queues `urb` for reaping: IN/control data to return, or the number of OUT bytes accepted."""
        self.pending.remove(urb)
        self.done.append((urb, status, bytes(data), accepted if accepted else len(data)))

    def interface_of(self, endpoint):
        return self.kit.endpoints.get(endpoint)

    def check_interface(self, interface, client):
        """usbfs claims an interface implicitly on first use; a kernel driver or another
        process's claim makes it EBUSY."""
        if interface is None or interface not in self.kit.interfaces:
            return errno.ENOENT
        if interface in self.claimed:
            return 0 if self.claimed[interface] is client else errno.EBUSY
        if self.driver.get(interface):
            return errno.EBUSY
        self.claimed[interface] = client
        return 0

    def client_gone(self, client):
        for interface in [i for i, owner in self.claimed.items() if owner is client]:
            del self.claimed[interface]
            log("released interface %d (file closed)" % interface)

    # ---- the UCI link ----

    def open_link(self):
        if self.link_requested or self.emulator.uci is None:
            return
        self.link_requested = True
        host, port = self.emulator.uci
        link = UciLink(host, port, self.from_uwbs)
        self.link = link
        threading.Thread(target=link.connect, daemon=True).start()

    def close_link(self):
        if self.link is not None:
            self.link.close()
        self.link = None
        self.link_requested = False

    def from_uwbs(self, link, data):
        with self.lock:
            if link is not self.link or self.unplugged:
                return
            log("uci-from-uwbs %s" % hexs(data))
            if not self.port_open():
                log("discarded %d bytes from the UWBS: port closed" % len(data))
                return
            if not self.output:
                self.output_since = time.monotonic()
            self.output += data

    def to_uwbs(self, packet):
        log("uci-to-uwbs %s" % hexs(packet))
        if self.link is not None:
            self.link.send(packet)

    # ---- control requests: returns (status, reply bytes) ----

    def standard_request(self, request_type, request, value, index, length):
        if request_type == 0x80 and request == 6:  # GET_DESCRIPTOR
            kind, number = value >> 8, value & 0xFF
            if kind == 1:
                return 0, self.kit.device_descriptor[:length]
            if kind == 2 and number == 0:
                return 0, self.kit.config_descriptor[:length]
            if kind == 3:
                if number == 0:
                    return 0, bytes([4, 3, 0x09, 0x04])[:length]
                strings = {1: self.kit.manufacturer, 2: self.kit.product, 3: self.kit.serial}
                if number in strings:
                    return 0, string_descriptor(strings[number])[:length]
            return -errno.EPIPE, b""
        if request_type == 0x80 and request == 8:  # GET_CONFIGURATION
            return 0, b"\x01"[:length]
        if request_type == 0x80 and request == 0:  # GET_STATUS
            return 0, b"\x00\x00"[:length]
        return None

    def control(self, setup, data_out):
        request_type, request, value, index, length = struct.unpack("<BBHHH", setup)
        result = self.standard_request(request_type, request, value, index, length)
        if result is not None:
            return result
        result = self.kit_control(request_type, request, value, index, length, data_out)
        if result is not None:
            return result
        log("stall: control %02x %02x value %04x index %04x" % (request_type, request, value, index))
        return -errno.EPIPE, b""

    def kit_control(self, request_type, request, value, index, length, data_out):
        return None

    # ---- URBs ----

    def submit(self, urb, client):
        if urb.type == URB_TYPE_CONTROL:
            setup = urb.payload[:8]
            request_type = setup[0]
            if request_type & 0x1F == 1:  # interface recipient: usbfs checks the claim
                error = self.check_interface(struct.unpack("<H", setup[4:6])[0] & 0xFF, client)
                if error:
                    return error
            self.pending.append(urb)
            status, reply = self.control(setup, urb.payload[8:])
            self.complete(urb, status, reply)
            return 0
        error = self.check_interface(self.interface_of(urb.endpoint), client)
        if error:
            return error
        self.pending.append(urb)
        if not urb.endpoint & 0x80:
            self.bulk_out_submitted(urb)
        self.pump()
        return 0

    def discard(self, addr):
        for urb in self.pending:
            if urb.addr == addr:
                self.complete(urb, -errno.ENOENT)
                if not urb.endpoint & 0x80 and urb.type != URB_TYPE_CONTROL:
                    log("bulk-out cancelled by the host (%d bytes not accepted)" % urb.length)
                return 0
        return errno.EINVAL

    def bulk_out_submitted(self, urb):
        pass

    def pump(self):
        """Completes what the device would have completed by now (called on every reap)."""

    def reset(self):
        log("usb reset")
        for interface in self.kit.interfaces:
            if interface not in self.claimed:
                self.driver[interface] = self.kit.kernel_driver

    def unplug(self):
        self.unplugged = True
        for urb in list(self.pending):
            self.complete(urb, -errno.ENODEV)
        self.close_link()

    def port_open(self):
        return True


class CdcAcmBoard(Board):
    """The DWM3001CDK: nRF5 SDK CDC-ACM class, UCI firmware."""

    def __init__(self, *args):
        super().__init__(*args)
        self.dtr = False
        self.rts = False
        self.line_coding = bytes.fromhex("00c2010000000008")[:7]  # 115200 8N1
        self.partial = bytearray()
        self.partial_at = 0.0

    def port_open(self):
        return self.dtr

    def kit_control(self, request_type, request, value, index, length, data_out):
        if request_type == 0x21 and request == 0x22:  # SET_CONTROL_LINE_STATE
            if index != 0:
                return -errno.EPIPE, b""
            dtr, rts = bool(value & 1), bool(value & 2)
            if dtr != self.dtr:
                log("DTR %s" % ("on" if dtr else "off"))
            self.dtr, self.rts = dtr, rts
            if dtr:
                self.open_link()
            else:
                self.output.clear()
                self.partial.clear()
            return 0, b""
        if request_type == 0x21 and request == 0x20:  # SET_LINE_CODING
            if len(data_out) != 7:
                return -errno.EPIPE, b""
            self.line_coding = bytes(data_out)
            baud, stop, parity, bits = struct.unpack("<IBBB", self.line_coding)
            log("line coding %d %d%s%d" % (baud, bits, "NOEMS"[parity] if parity < 5 else "?", stop + 1))
            return 0, b""
        if request_type == 0xA1 and request == 0x21:  # GET_LINE_CODING
            return 0, self.line_coding[:length]
        return None

    def bulk_out_submitted(self, urb):
        if urb.endpoint == 0x01:
            log("bulk-out %s" % hexs(urb.payload))

    def pump(self):
        now = time.monotonic()
        for urb in list(self.pending):
            if urb.type == URB_TYPE_CONTROL:
                continue
            if urb.endpoint == 0x01:
                if not self.dtr:
                    continue  # NAK: the firmware refuses data until DTR
                self.receive(urb.payload, now)
                self.complete(urb, 0, accepted=urb.length)
            elif urb.endpoint == 0x81:
                if not self.dtr or not self.output:
                    continue
                self.send_in(urb)
            # 0x82 (CDC notifications): this firmware sends none; the URB stays pending.

    def receive(self, data, now):
        """The firmware's UCI parser: length from the header; a partial packet dies after 100 ms."""
        if self.partial and now - self.partial_at > 0.1:
            log("dropped partial packet %s (100 ms gap)" % hexs(self.partial))
            self.partial.clear()
        self.partial += data
        self.partial_at = now
        while len(self.partial) >= 4:
            length = 4 + uci_payload_length(self.partial)
            if len(self.partial) < length:
                break
            packet = bytes(self.partial[:length])
            del self.partial[:length]
            self.to_uwbs(packet)

    def send_in(self, urb):
        """Fills an IN URB with 64-byte packets from the output stream; a short packet ends it."""
        data = bytearray()
        room = urb.length
        while self.output:
            packet = bytes(self.output[:PACKET])
            if len(packet) > room:
                if room == 0:
                    break
                del self.output[:len(packet)]
                log("overflow: %d-byte packet for a %d-byte buffer, packet lost" % (len(packet), room))
                self.complete(urb, -errno.EOVERFLOW, data)
                return
            del self.output[:len(packet)]
            data += packet
            room -= len(packet)
            if len(packet) < PACKET:
                break
        log("bulk-in %s" % hexs(data))
        self.complete(urb, 0, data)

    def reset(self):
        super().reset()
        self.dtr = False
        self.output.clear()
        self.partial.clear()


class FtdiBoard(Board):
    """The SR150 EVK: FT230X USB-UART bridge, the board's MCU behind the UART."""

    STATUS = bytes([0x01, 0x60])
    BAUD_NEEDED = 3_000_000

    def __init__(self, *args):
        super().__init__(*args)
        # NXP's firmware after power-up: waits for its board configuration (--board-config).
        self.board_configured = not self.emulator.board_config
        self.announced = False
        self.baud = 9600
        self.data_config = 0x0008
        self.latency_ms = 16
        self.flow = 0
        self.modem = 0
        self.uart_in = bytearray()   # bytes received by the board's MCU, parsed as frames
        self.last_in = time.monotonic()

    def uart_ok(self):
        return self.baud == self.BAUD_NEEDED and self.data_config == 0x0008

    def port_open(self):
        return self.uart_ok()

    @staticmethod
    def decode_baud(value, index):
        encoded = value | (index & 0x0001) << 16  # FT230X (not an H chip): wIndex carries bit 16
        if encoded == 0:
            return 3_000_000
        if encoded == 1:
            return 2_000_000
        fraction = {0: 0, 1: 4, 2: 2, 3: 1, 4: 3, 5: 5, 6: 6, 7: 7}[(encoded >> 14) & 0x07]
        divisor8 = (encoded & 0x3FFF) * 8 + fraction
        return (3_000_000 * 8 + divisor8 // 2) // divisor8

    def kit_control(self, request_type, request, value, index, length, data_out):
        if request_type == 0x40:
            if request == 0x00:
                what = {0: "reset", 1: "purge rx", 2: "purge tx"}.get(value, "reset %d" % value)
                log("ftdi %s" % what)
                if value in (0, 1):
                    self.output.clear()
                if value in (0, 2):
                    self.uart_in.clear()
                return 0, b""
            if request == 0x01:
                log("ftdi modem control %04x" % value)
                mask, bits = value >> 8, value & 0xFF
                self.modem = (self.modem & ~mask) | (bits & mask)
                return 0, b""
            if request == 0x02:
                self.flow = index >> 8
                log("ftdi flow control %s" % {0: "none", 1: "rts/cts", 2: "dtr/dsr", 4: "xon/xoff"}.get(self.flow, "%x" % self.flow))
                return 0, b""
            if request == 0x03:
                self.baud = self.decode_baud(value, index)
                log("ftdi baud %d" % self.baud)
                if self.uart_ok():
                    self.open_link()
                    self.announce()
                return 0, b""
            if request == 0x04:
                self.data_config = value
                bits, parity, stop = value & 0xFF, (value >> 8) & 0x7, (value >> 11) & 0x3
                log("ftdi data %d%s%d" % (bits, "NOEMS"[parity] if parity < 5 else "?", 1 if stop == 0 else 2))
                if self.uart_ok():
                    self.open_link()
                    self.announce()
                return 0, b""
            if request == 0x09:
                self.latency_ms = max(1, value & 0xFF)
                log("ftdi latency %d ms" % self.latency_ms)
                return 0, b""
        if request_type == 0xC0:
            if request == 0x05:
                return 0, self.STATUS[:length]
            if request == 0x0A:
                return 0, bytes([self.latency_ms])[:length]
        return None

    def bulk_out_submitted(self, urb):
        log("bulk-out %s" % hexs(urb.payload))

    def pump(self):
        now = time.monotonic()
        for urb in list(self.pending):
            if urb.type == URB_TYPE_CONTROL:
                continue
            if urb.endpoint == 0x02:
                if self.uart_ok():
                    self.uart_in += urb.payload
                    self.parse_frames()
                else:
                    log("uart garbage: %d bytes at %d baud never reach the board" % (len(urb.payload), self.baud))
                self.complete(urb, 0, accepted=urb.length)
            elif urb.endpoint == 0x81:
                self.send_in(urb, now)

    def parse_frames(self):
        """The board's host interface: [type][len_hi][len_lo] + payload; type 0x01 = UCI."""
        while len(self.uart_in) >= 3:
            kind, length = self.uart_in[0], self.uart_in[1] << 8 | self.uart_in[2]
            if kind < 0x01 or kind > 0x12:
                log("board: unknown frame type %02x, resynchronising" % kind)
                del self.uart_in[:1]
                continue
            if len(self.uart_in) < 3 + length:
                return
            payload = bytes(self.uart_in[3:3 + length])
            del self.uart_in[:3 + length]
            if kind == 0x01 and self.board_configured:
                self.to_uwbs(payload)
            elif kind == 0x01:
                self.board_firmware(payload)
            else:
                log("board: frame type %02x ignored (%d bytes)" % (kind, length))

    # ---- NXP's firmware before its board configuration (--board-config) ----

    def firmware_says(self, data):
        log("board-firmware %s" % hexs(data))
        if not self.output:
            self.output_since = time.monotonic()
        self.output += data

    def announce(self):
        """Once the UART works: CORE_DEVICE_STATUS_NTF with NXP's hardware-init state 0x00."""
        if self.board_configured or self.announced:
            return
        self.announced = True
        self.firmware_says(bytes([0x60, 0x01, 0x00, 0x01, 0x00]))

    def board_firmware(self, packet):
        if len(packet) >= 6 and packet[0] == 0x2E and packet[1] & 0x3F == 0x00 and packet[3] == 0x02:
            self.board_configured = True
            log("board-config variant=%02x version=%02x" % (packet[4], packet[5]))
            self.firmware_says(bytes([0x4E, 0x00, 0x00, 0x01, 0x00]))
            self.firmware_says(bytes([0x60, 0x01, 0x00, 0x01, 0x01]))
        elif len(packet) >= 4 and packet[0] >> 5 == 1:
            log("board: refused %s before the board configuration" % hexs(packet[:4]))
            self.firmware_says(bytes([0x40 | (packet[0] & 0x0F), packet[1] & 0x3F, 0x00, 0x01, 0x01]))

    def from_uwbs(self, link, data):
        with self.lock:
            if not self.board_configured:
                log("board: %d byte(s) from the UWBS not passed on before the board configuration" % len(data))
                return
        super().from_uwbs(link, data)

    def send_in(self, urb, now):
        """FT230X: every packet starts with 2 status bytes; data waits for 62 bytes or the latency timer."""
        latency = self.latency_ms / 1000.0
        ready = len(self.output) >= PACKET - 2 or (self.output and now - self.output_since >= latency)
        if not ready and now - self.last_in < latency:
            return
        data = bytearray()
        room = urb.length
        while room >= PACKET or (room > 2 and not data):
            chunk = bytes(self.output[:min(PACKET - 2, room - 2)])
            del self.output[:len(chunk)]
            data += self.STATUS + chunk
            room -= 2 + len(chunk)
            if 2 + len(chunk) < PACKET:
                break
        self.output_since = now if self.output else None
        self.last_in = now
        if len(data) > 2:
            log("bulk-in %s" % hexs(data))
        self.complete(urb, 0, data)

    def reset(self):
        super().reset()
        self.output.clear()
        self.uart_in.clear()


BOARDS = {"dwm3001cdk": CdcAcmBoard, "sr150": FtdiBoard}


# --------------------------------------------------------------------------------------------
# The emulator: testbed, ioctl handler, plug / unplug


class Emulator:
    def __init__(self, UMockdev, kit, uci, bus, address, board_config=False):
        self.UMockdev = UMockdev
        self.kit = kit
        self.uci = uci
        self.board_config = board_config
        self.bus = bus
        self.next_address = address
        self.lock = threading.RLock()
        # Python locks are not fair: a client polling REAPURBNDELAY keeps the worker thread
        # re-taking `lock`, so the main thread (plug/unplug) raises this gate to get a turn.
        self.main_waiting = threading.Event()
        self.boards = {}   # devnode -> Board (unplugged ones stay to answer ENODEV)
        self.board = None
        self.testbed = UMockdev.Testbed.new()
        self.handler = UMockdev.IoctlBase()
        self.handler.connect("handle-ioctl", self.handle_ioctl)
        self.keep = []     # URBs (IoctlData) that must stay alive while the client may reap them
        self.clients = {}  # id -> IoctlClient: kept alive so that their identity stays stable
        self.handler.connect("client-vanished", self.client_vanished)
        self.testbed.add_from_string(
            "P: /devices/usb%d\nN: bus/usb/%03d/001\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n"
            "E: BUSNUM=%03d\nE: DEVNUM=001\nE: DEVNAME=/dev/bus/usb/%03d/001\n"
            "A: busnum=%d\\n\nA: devnum=1\\n\nA: idVendor=1d6b\\n\nA: idProduct=0002\\n\nA: speed=480\\n\n"
            "A: bConfigurationValue=1\\n\nA: product=EHCI Host Controller\\n\n"
            "H: descriptors=12010002090001406b1d020000060302010109021900010100e0000904000001090000000705810304000c\n"
            % (bus, bus, bus, bus, bus))

    @property
    def root(self):
        return self.testbed.get_root_dir()

    def close(self):
        """Drops the UCI links and deletes the testbed's temporary root."""
        with self.main_turn():
            for board in self.boards.values():
                board.close_link()
            root = self.root
        shutil.rmtree(root, ignore_errors=True)

    def plug(self):
        with self.main_turn():
            address = self.next_address
            self.next_address += 1
            board = BOARDS[self.kit.name](self, self.kit, self.bus, address)
            self.boards[board.devnode] = board
            self.board = board
        kit = self.kit
        # Said before the device exists: a client may open it at once, from umockdev's worker
        # thread, and its claims must come after this line in the log.
        log("plugged %s %04x:%04x at %d.%d (%s)" % (kit.name, kit.vid, kit.pid, self.bus, address, board.devnode))
        # The ioctl handler must be attached before the device exists (libusb may open it at once).
        self.testbed.attach_ioctl(board.devnode, self.handler)
        self.testbed.add_from_string(
            "P: %s\nN: bus/usb/%03d/%03d\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n"
            "E: BUSNUM=%03d\nE: DEVNUM=%03d\nE: DEVNAME=%s\nE: ID_VENDOR_ID=%04x\nE: ID_MODEL_ID=%04x\n"
            "A: busnum=%d\\n\nA: devnum=%d\\n\nA: idVendor=%04x\\n\nA: idProduct=%04x\\n\nA: speed=12\\n\n"
            "A: bConfigurationValue=1\\n\nA: bNumInterfaces=%2d\\n\nA: manufacturer=%s\\n\nA: product=%s\\n\n"
            "A: serial=%s\\n\nH: descriptors=%s\n"
            % (board.devpath, self.bus, address, self.bus, address, board.devnode, kit.vid, kit.pid,
               self.bus, address, kit.vid, kit.pid, len(kit.interfaces), kit.manufacturer, kit.product,
               kit.serial, (kit.device_descriptor + kit.config_descriptor).hex()))

    def unplug(self):
        with self.main_turn():
            board = self.board
            if board is None:
                return
            self.board = None
            board.unplug()
        try:
            self.testbed.uevent(board.syspath, "remove")
        except Exception as error:  # noqa: BLE001 - report and go on: the node still answers ENODEV
            log("remove uevent failed: %s" % error)
        self.testbed.remove_device(board.syspath)
        log("unplugged %d.%d" % (board.bus, board.address))

    # ---- ioctl dispatch (umockdev's worker thread) ----

    @contextlib.contextmanager
    def main_turn(self):
        self.main_waiting.set()
        try:
            with self.lock:
                yield
        finally:
            self.main_waiting.clear()

    def client_vanished(self, handler, client):
        with self.lock:
            self.clients.pop(id(client), None)
            for board in self.boards.values():
                board.client_gone(client)

    def handle_ioctl(self, handler, client):
        request = client.get_request() & 0xFFFFFFFF
        while self.main_waiting.is_set():
            time.sleep(0.001)
        with self.lock:
            client = self.clients.setdefault(id(client), client)
            board = self.boards.get(client.get_devnode())
            if board is None:
                return False
            try:
                result = self.dispatch(board, request, client)
            except Exception as error:  # noqa: BLE001 - a broken handler must not kill the worker thread
                log("internal error handling ioctl %08x: %r" % (request, error))
                result = (-1, errno.EIO)
        if result is None:
            return False
        client.complete(result[0], result[1])
        return True

    def dispatch(self, board, request, client):
        arg = client.get_arg()
        if board.unplugged:
            if request in (REAPURB, REAPURBNDELAY) and board.done:
                return self.reap(board, arg)
            return (-1, errno.ENODEV)
        if request == GET_CAPABILITIES:
            arg.resolve(0, 4).update(0, list(struct.pack("<I", CAPS)))
            return (0, 0)
        if request == GET_SPEED:
            return (USB_SPEED_FULL, 0)
        if request == CONNECTINFO:
            arg.resolve(0, 8).update(0, list(struct.pack("<IB", board.address, 0)))
            return (0, 0)
        if request == GETDRIVER:
            data = arg.resolve(0, 260)
            interface = struct.unpack("<I", bytes(data.retrieve()[:4]))[0]
            if interface in board.claimed:
                name = "usbfs"  # claimed through usbfs, by this or another process
            else:
                name = board.driver.get(interface)
            if not name:
                return (-1, errno.ENODATA)
            data.update(4, list(name.encode() + b"\0"))
            return (0, 0)
        if request == USBFS_IOCTL:
            data = arg.resolve(0, 16)
            interface, code = struct.unpack("<iI", bytes(data.retrieve()[:8]))
            if interface not in board.kit.interfaces:
                return (-1, errno.EINVAL)
            if code == DISCONNECT:
                if interface in board.claimed or not board.driver.get(interface):
                    return (-1, errno.ENODATA)
                log("detach interface %d (%s)" % (interface, board.driver[interface]))
                board.driver[interface] = None
                return (0, 0)
            if code == CONNECT:
                if interface in board.claimed:
                    return (-1, errno.EBUSY)
                if not board.driver.get(interface):
                    board.driver[interface] = board.kit.kernel_driver
                    log("attach interface %d (%s)" % (interface, board.kit.kernel_driver))
                return (1, 0)
            return (-1, errno.ENOTTY)
        if request == DISCONNECT_CLAIM:
            data = arg.resolve(0, 264)
            raw = bytes(data.retrieve())
            interface, flags = struct.unpack("<II", raw[:8])
            wanted = raw[8:].split(b"\0")[0].decode()
            if interface not in board.kit.interfaces:
                return (-1, errno.EINVAL)
            if interface in board.claimed:
                return (0, 0) if board.claimed[interface] is client else (-1, errno.EBUSY)
            bound = board.driver.get(interface)
            if bound:
                if (flags & 0x01 and bound != wanted) or (flags & 0x02 and bound == wanted):
                    return (-1, errno.EBUSY)
                log("detach interface %d (%s)" % (interface, bound))
                board.driver[interface] = None
            board.claimed[interface] = client
            log("claim interface %d" % interface)
            return (0, 0)
        if request == CLAIMINTERFACE:
            interface = struct.unpack("<I", bytes(arg.resolve(0, 4).retrieve()))[0]
            if interface not in board.kit.interfaces:
                return (-1, errno.ENOENT)
            if interface in board.claimed:
                if board.claimed[interface] is client:
                    return (0, 0)
                log("claim interface %d refused: claimed by another process" % interface)
                return (-1, errno.EBUSY)
            if board.driver.get(interface):
                log("claim interface %d refused: bound to %s" % (interface, board.driver[interface]))
                return (-1, errno.EBUSY)
            board.claimed[interface] = client
            log("claim interface %d" % interface)
            return (0, 0)
        if request == RELEASEINTERFACE:
            interface = struct.unpack("<I", bytes(arg.resolve(0, 4).retrieve()))[0]
            if board.claimed.get(interface) is not client:
                return (-1, errno.EINVAL)
            del board.claimed[interface]
            log("release interface %d" % interface)
            return (0, 0)
        if request == SETCONFIGURATION:
            if any(board.driver.get(i) or (i in board.claimed and board.claimed[i] is not client) for i in board.kit.interfaces):
                return (-1, errno.EBUSY)
            return (0, 0)
        if request in (SETINTERFACE, CLEAR_HALT, RESETEP):
            return (0, 0)
        if request == RESET:
            board.reset()
            return (0, 0)
        if request == CONTROL:
            return self.sync_control(board, arg, client)
        if request == SUBMITURB:
            return self.submit(board, arg, client)
        if request in (REAPURB, REAPURBNDELAY):
            board.pump()
            if not board.done:
                return (-1, errno.EAGAIN)
            return self.reap(board, arg)
        if request == DISCARDURB:
            addr = struct.unpack("<Q", bytes(arg.retrieve()[:8]))[0]
            error = board.discard(addr)
            return (-1, error) if error else (0, 0)
        return None

    def sync_control(self, board, arg, client):
        data = arg.resolve(0, 24)
        raw = bytes(data.retrieve())
        setup = raw[:8]
        length = struct.unpack("<H", raw[6:8])[0]
        buffer = data.resolve(16, length) if length else None
        data_out = bytes(buffer.retrieve()) if buffer is not None and not setup[0] & 0x80 else b""
        if setup[0] & 0x1F == 1:
            error = board.check_interface(struct.unpack("<H", setup[4:6])[0] & 0xFF, client)
            if error:
                return (-1, error)
        status, reply = board.control(setup, data_out)
        if status < 0:
            return (-1, -status)
        if setup[0] & 0x80:
            if reply:
                buffer.update(0, list(reply))
            return (len(reply), 0)
        return (length, 0)

    def submit(self, board, arg, client):
        urb_data = arg.resolve(0, 56)
        raw = bytes(urb_data.retrieve())
        urb_type, endpoint = raw[0], raw[1]
        length = struct.unpack("<i", raw[24:28])[0]
        buffer = urb_data.resolve(16, length) if length > 0 else None
        urb = Urb(urb_data, buffer, (urb_type, endpoint, length))
        error = board.submit(urb, client)
        if error:
            return (-1, error)
        self.keep.append(urb)
        return (0, 0)

    def reap(self, board, arg):
        urb, status, data, actual = board.done.pop(0)
        # All work is done before the URB becomes reapable (a failure here must not leave it half-reaped).
        if data:
            offset = 8 if urb.type == URB_TYPE_CONTROL else 0
            urb.buffer.update(offset, list(data))
        urb.data.update(4, list(struct.pack("<i", status)))
        urb.data.update(28, list(struct.pack("<i", actual)))
        pointer = arg.resolve(0, 8)
        pointer.set_ptr(0, urb.data)
        if urb in self.keep:
            self.keep.remove(urb)
        return (0, 0)


# --------------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(description="Emulated UWB dev kit on USB under umockdev.")
    parser.add_argument("--kit", choices=sorted(KITS), default="dwm3001cdk")
    parser.add_argument("--uci", help="UCI server to bridge the board to, tcp:HOST:PORT")
    parser.add_argument("--board-config", action="store_true",
                        help="sr150: start like NXP's firmware, needing the board configuration (GID 0xE, OID 0x00)")
    parser.add_argument("--bus", type=int, default=1)
    parser.add_argument("--address", type=int, default=2, help="device address of the first plug-in")
    parser.add_argument("--env-file", help="long-lived mode: write UMOCKDEV_DIR=... here")
    parser.add_argument("--quiet-packets", action="store_true", help="no log line per packet (load tests)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    args = parser.parse_args()
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if not args.command and not args.env_file:
        parser.error("give a command after -- or --env-file for the long-lived mode")
    if args.uci:
        if not args.uci.startswith("tcp:") or ":" not in args.uci[4:]:
            parser.error("--uci must be tcp:HOST:PORT, got %r" % args.uci)
        host, port = args.uci[4:].rsplit(":", 1)
        args.uci = (host.strip("[]"), int(port))
    return args


def main():
    global QUIET_PACKETS
    args = parse_arguments()
    QUIET_PACKETS = args.quiet_packets
    # The parent may have spawned us with these blocked (they survive exec): plug/unplug need them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGINT})
    # Hotplug uevents only reach libusb's udev monitor if the emulator itself runs under the preload.
    if PRELOAD not in os.environ.get("LD_PRELOAD", ""):
        env = dict(os.environ)
        env["LD_PRELOAD"] = PRELOAD + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)

    try:
        import gi
        gi.require_version("UMockdev", "1.0")
        from gi.repository import UMockdev
    except (ImportError, ValueError) as error:
        log("umockdev's GObject bindings are missing (%s): apt-get install umockdev gir1.2-umockdev-1.0 python3-gi" % error)
        return 3

    emulator = Emulator(UMockdev, KITS[args.kit], args.uci, args.bus, args.address, board_config=args.board_config)
    try:
        return serve(args, emulator)
    finally:
        emulator.close()


def serve(args, emulator):
    emulator.plug()

    signal.signal(signal.SIGUSR1, lambda *_: emulator.unplug())
    signal.signal(signal.SIGUSR2, lambda *_: emulator.plug())

    env = dict(os.environ)
    env["UMOCKDEV_DIR"] = emulator.root
    env["NEARBY_EMULATOR_PID"] = str(os.getpid())

    if not args.command:
        tmp = args.env_file + ".tmp"
        with open(tmp, "w") as handle:
            handle.write("UMOCKDEV_DIR=%s\nNEARBY_EMULATOR_PID=%d\n" % (emulator.root, os.getpid()))
        os.rename(tmp, args.env_file)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        log("serving %s in %s" % (args.kit, emulator.root))
        while not stop.is_set():
            stop.wait(0.5)
        return 0

    try:
        child = subprocess.Popen(args.command, env=env)
    except OSError as error:
        log("cannot run %s: %s" % (args.command[0], error))
        return 127
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    signal.signal(signal.SIGINT, lambda *_: child.send_signal(signal.SIGINT))
    # Poll instead of a blocking wait: a signal delivered to one of umockdev's threads only
    # runs its Python handler when the main thread executes bytecode again.
    while child.poll() is None:
        time.sleep(0.02)
    status = child.returncode
    log("command exited with status %d" % status)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
