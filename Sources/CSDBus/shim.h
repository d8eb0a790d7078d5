// sd-bus (systemd's D-Bus client library, libsystemd) for Swift: the header only.
#ifndef NEARBY_CSDBUS_SHIM_H
#define NEARBY_CSDBUS_SHIM_H
#include <systemd/sd-bus.h>
#endif
