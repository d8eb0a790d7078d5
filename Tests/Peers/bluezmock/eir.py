"""Advertising data as bluetoothd's src/eir.c parses it (the fields Device1 exposes)."""

from __future__ import annotations

import dataclasses
import uuid as uuid_module

BASE = '-0000-1000-8000-00805f9b34fb'


def uuid16(value: int) -> str:
    return f'{value:08x}{BASE}'


def uuid128(little_endian: bytes) -> str:
    return str(uuid_module.UUID(bytes=bytes(reversed(little_endian))))


@dataclasses.dataclass
class EIR:
    flags: int = 0
    services: list[str] = dataclasses.field(default_factory=list)  # advertised UUID lists only (eir->services)
    name: str | None = None
    name_complete: bool = False
    tx_power: int = 127
    appearance: int = 0
    msd: dict[int, bytes] = dataclasses.field(default_factory=dict)
    sd: dict[str, bytes] = dataclasses.field(default_factory=dict)


def parse(data: bytes) -> EIR:
    eir = EIR()
    index = 0
    while index < len(data):
        length = data[index]
        if length == 0 or index + 1 + length > len(data):
            break
        kind, value = data[index + 1], bytes(data[index + 2:index + 1 + length])
        index += 1 + length
        if kind == 0x01 and value:
            eir.flags = value[0]
        elif kind in (0x02, 0x03):
            eir.services += [uuid16(int.from_bytes(value[i:i + 2], 'little')) for i in range(0, len(value) - 1, 2)]
        elif kind in (0x04, 0x05):
            eir.services += [f'{int.from_bytes(value[i:i + 4], "little"):08x}{BASE}' for i in range(0, len(value) - 3, 4)]
        elif kind in (0x06, 0x07):
            eir.services += [uuid128(value[i:i + 16]) for i in range(0, len(value) - 15, 16)]
        elif kind in (0x08, 0x09):
            name = value.decode('utf-8', errors='replace')
            if kind == 0x09 or not eir.name_complete:
                eir.name, eir.name_complete = name, kind == 0x09
        elif kind == 0x0A and value:
            eir.tx_power = int.from_bytes(value[:1], 'little', signed=True)
        elif kind == 0x19 and len(value) >= 2:
            eir.appearance = int.from_bytes(value[:2], 'little')
        elif kind == 0xFF and len(value) >= 2:
            eir.msd[int.from_bytes(value[:2], 'little')] = value[2:]
        elif kind == 0x16 and len(value) >= 2:
            eir.sd[uuid16(int.from_bytes(value[:2], 'little'))] = value[2:]
        elif kind == 0x20 and len(value) >= 4:
            eir.sd[f'{int.from_bytes(value[:4], "little"):08x}{BASE}'] = value[4:]
        elif kind == 0x21 and len(value) >= 16:
            eir.sd[uuid128(value[:16])] = value[16:]
    return eir


def build(*, flags: int | None, uuids: list[str] = (), name: str | None = None) -> bytes:
    """Advertising data as bluetoothd (src/advertising.c) and the kernel build it: flags, the
    service UUIDs (16-bit when on the base UUID, else 128-bit), the name."""
    data = b''
    if flags is not None:
        data += bytes([2, 0x01, flags])
    short = [u for u in uuids if u.lower().endswith(BASE) and u.lower().startswith('0000')]
    long = [u for u in uuids if u not in short]
    if short:
        value = b''.join(int(u[4:8], 16).to_bytes(2, 'little') for u in short)
        data += bytes([len(value) + 1, 0x03]) + value
    if long:
        value = b''.join(bytes(reversed(uuid_module.UUID(u).bytes)) for u in long)
        data += bytes([len(value) + 1, 0x07]) + value
    if name:
        encoded = name.encode()
        room = 31 - len(data) - 2
        kind = 0x09
        if len(encoded) > room:
            encoded, kind = encoded[:max(0, room)], 0x08
        data += bytes([len(encoded) + 1, kind]) + encoded
    return data
