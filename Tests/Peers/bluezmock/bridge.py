"""Calls between GLib's main loop (dbus-python, the main thread) and Bumble's asyncio loop (a
second thread)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import traceback

import dbus
import dbus.service
from gi.repository import GLib

logger = logging.getLogger(__name__)


class BlueZError(Exception):
    """An error reply of bluetoothd: ``org.bluez.Error.<name>``."""

    def __init__(self, name: str, message: str = '') -> None:
        super().__init__(message)
        self.name = name if '.' in name else f'org.bluez.Error.{name}'
        self.message = message

    def dbus(self) -> dbus.exceptions.DBusException:
        return dbus.exceptions.DBusException(self.message, name=self.name)


class Bridge:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name='bumble', daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self) -> None:
        self.thread.start()

    # GLib -> asyncio ---------------------------------------------------------------------------
    def bumble(self, coroutine) -> concurrent.futures.Future:
        """Runs `coroutine` on Bumble's loop."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    # asyncio -> GLib ---------------------------------------------------------------------------
    @staticmethod
    def glib(function, *args) -> None:
        """Runs `function(*args)` on GLib's main loop (D-Bus objects live there)."""
        def run():
            try:
                function(*args)
            except Exception:  # a bug in the mock: say so, keep running
                traceback.print_exc()
            return False
        GLib.idle_add(run)

    async def on_glib(self, function):
        """Runs `function()` on GLib's loop and returns its result to the asyncio caller."""
        future = self.loop.create_future()

        def run():
            try:
                result = function()
            except BaseException as error:
                self.loop.call_soon_threadsafe(_settle, future, None, error)
            else:
                self.loop.call_soon_threadsafe(_settle, future, result, None)
            return False
        GLib.idle_add(run)
        return await future

    async def call(self, bus, destination: str, path: str, interface: str, method: str, *args,
                   signature: str | None = None, timeout: float = 25.0):
        """Calls a method of another bus client (an agent, an application) from the asyncio
        loop; returns its return values as a tuple."""
        future = self.loop.create_future()

        def start():
            try:
                target = bus.get_object(destination, path, introspect=False)
                getattr(target, method)(
                    *args, dbus_interface=interface, signature=signature, timeout=timeout, byte_arrays=True,
                    reply_handler=lambda *values: self.loop.call_soon_threadsafe(_settle, future, values, None),
                    error_handler=lambda error: self.loop.call_soon_threadsafe(_settle, future, None, error))
            except BaseException as error:
                self.loop.call_soon_threadsafe(_settle, future, None, error)
            return False
        GLib.idle_add(start)
        return await future

    # D-Bus methods answered by coroutines ------------------------------------------------------
    def method(self, interface: str, in_signature: str, out_signature: str, handler):
        """A dbus-python method (for dbusmock's method table) whose body is the coroutine
        `handler(obj, *args, sender=...)` on Bumble's loop; its result is the reply, a
        ``BlueZError`` the error reply."""
        bridge = self
        count = len(list(dbus.Signature(in_signature)))

        def dispatch(obj, args, sender, ok, err):
            future = bridge.bumble(handler(obj, *args, sender=sender))

            def done(f: concurrent.futures.Future) -> None:
                def answer():
                    try:
                        result = f.result()
                    except BlueZError as error:
                        err(error.dbus())
                        return
                    except dbus.exceptions.DBusException as error:
                        err(error)
                        return
                    except Exception as error:
                        traceback.print_exc()
                        err(dbus.exceptions.DBusException(str(error) or type(error).__name__, name='org.bluez.Error.Failed'))
                        return
                    if out_signature == '':
                        ok()
                    elif len(list(dbus.Signature(out_signature))) > 1:
                        ok(*result)
                    else:
                        ok(result)
                bridge.glib(answer)
            future.add_done_callback(done)

        # dbus-python reads the parameter names: one function per arity.
        if count == 0:
            def function(self, sender=None, ok=None, err=None):
                dispatch(self, (), sender, ok, err)
        elif count == 1:
            def function(self, a, sender=None, ok=None, err=None):
                dispatch(self, (a,), sender, ok, err)
        elif count == 2:
            def function(self, a, b, sender=None, ok=None, err=None):
                dispatch(self, (a, b), sender, ok, err)
        else:
            raise ValueError(f'too many arguments: {in_signature}')
        return dbus.service.method(interface, in_signature=in_signature, out_signature=out_signature,
                                   async_callbacks=('ok', 'err'), sender_keyword='sender', byte_arrays=True)(function)


def install(obj, interface: str, name: str, in_signature: str, out_signature: str, function) -> None:
    """Puts a dbus-python method into a dbusmock object's method table."""
    function.__name__ = name
    obj.methods.setdefault(interface, {})[name] = (in_signature, out_signature, '', function)


def _settle(future: asyncio.Future, result, error) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
