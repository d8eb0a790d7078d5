// libusb-1.0 for Swift: the header plus wrappers for what Swift cannot import.
#ifndef NEARBY_CLIBUSB_SHIM_H
#define NEARBY_CLIBUSB_SHIM_H
#include <libusb-1.0/libusb.h>

/// libusb_set_option is variadic; Swift cannot call it directly.
static inline int nearby_libusb_set_option_noarg(libusb_context *ctx, enum libusb_option option) {
    return libusb_set_option(ctx, option);
}
static inline int nearby_libusb_set_option_int(libusb_context *ctx, enum libusb_option option, int value) {
    return libusb_set_option(ctx, option, value);
}
#endif
