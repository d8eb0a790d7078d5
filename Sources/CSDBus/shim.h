// sd-bus (systemd's D-Bus client library, libsystemd) for Swift: the header only.
// Nothing links libsystemd: SDBusLibrary.swift (module BlueZ) opens libsystemd.so.0 with dlopen
// when the BlueZ backend first connects and resolves the functions below with dlsym, so a binary
// that never uses BlueZ does not load it (nor libgcrypt, liblz4, libzstd, ... which it pulls in).
#ifndef NEARBY_CSDBUS_SHIM_H
#define NEARBY_CSDBUS_SHIM_H
#include <systemd/sd-bus.h>

// `name_fn`: a pointer to `name`, typed from the header's own declaration (cannot drift from it).
#define NEARBY_SD_BUS_FN(name) typedef __typeof__(name) *name##_fn
NEARBY_SD_BUS_FN(sd_bus_add_fallback);
NEARBY_SD_BUS_FN(sd_bus_add_match);
NEARBY_SD_BUS_FN(sd_bus_call_async);
NEARBY_SD_BUS_FN(sd_bus_error_free);
NEARBY_SD_BUS_FN(sd_bus_error_set);
NEARBY_SD_BUS_FN(sd_bus_flush_close_unref);
NEARBY_SD_BUS_FN(sd_bus_get_events);
NEARBY_SD_BUS_FN(sd_bus_get_fd);
NEARBY_SD_BUS_FN(sd_bus_get_timeout);
NEARBY_SD_BUS_FN(sd_bus_get_unique_name);
NEARBY_SD_BUS_FN(sd_bus_message_append_array);
NEARBY_SD_BUS_FN(sd_bus_message_append_basic);
NEARBY_SD_BUS_FN(sd_bus_message_close_container);
NEARBY_SD_BUS_FN(sd_bus_message_enter_container);
NEARBY_SD_BUS_FN(sd_bus_message_exit_container);
NEARBY_SD_BUS_FN(sd_bus_message_get_error);
NEARBY_SD_BUS_FN(sd_bus_message_get_interface);
NEARBY_SD_BUS_FN(sd_bus_message_get_member);
NEARBY_SD_BUS_FN(sd_bus_message_get_path);
NEARBY_SD_BUS_FN(sd_bus_message_get_sender);
NEARBY_SD_BUS_FN(sd_bus_message_get_type);
NEARBY_SD_BUS_FN(sd_bus_message_is_method_error);
NEARBY_SD_BUS_FN(sd_bus_message_new_method_call);
NEARBY_SD_BUS_FN(sd_bus_message_new_method_return);
NEARBY_SD_BUS_FN(sd_bus_message_new_signal);
NEARBY_SD_BUS_FN(sd_bus_message_open_container);
NEARBY_SD_BUS_FN(sd_bus_message_peek_type);
NEARBY_SD_BUS_FN(sd_bus_message_read_array);
NEARBY_SD_BUS_FN(sd_bus_message_read_basic);
NEARBY_SD_BUS_FN(sd_bus_message_ref);
NEARBY_SD_BUS_FN(sd_bus_message_rewind);
NEARBY_SD_BUS_FN(sd_bus_message_unref);
NEARBY_SD_BUS_FN(sd_bus_negotiate_fds);
NEARBY_SD_BUS_FN(sd_bus_new);
NEARBY_SD_BUS_FN(sd_bus_open_system);
NEARBY_SD_BUS_FN(sd_bus_process);
NEARBY_SD_BUS_FN(sd_bus_reply_method_error);
NEARBY_SD_BUS_FN(sd_bus_send);
NEARBY_SD_BUS_FN(sd_bus_set_address);
NEARBY_SD_BUS_FN(sd_bus_set_bus_client);
NEARBY_SD_BUS_FN(sd_bus_start);
NEARBY_SD_BUS_FN(sd_bus_unref);
NEARBY_SD_BUS_FN(sd_bus_wait);
#undef NEARBY_SD_BUS_FN

#endif
