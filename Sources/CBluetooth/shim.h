// BlueZ's libbluetooth for Swift: constants, structs and address helpers only.
#ifndef NEARBY_CBLUETOOTH_SHIM_H
#define NEARBY_CBLUETOOTH_SHIM_H
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/// HCIGETDEVLIST / HCIGETDEVINFO are function-like ioctl macros.
static const unsigned long nearby_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long nearby_HCIGETDEVINFO = HCIGETDEVINFO;
static const unsigned long nearby_HCIDEVDOWN = HCIDEVDOWN;
#endif
