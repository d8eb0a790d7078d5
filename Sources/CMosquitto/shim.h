// libmosquitto (Eclipse Mosquitto's MQTT 3.1.1 / 5 client library) for Swift: the headers only.
#ifndef NEARBY_CMOSQUITTO_SHIM_H
#define NEARBY_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
