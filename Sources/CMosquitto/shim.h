// libmosquitto (Eclipse Mosquitto's MQTT 3.1.1 / 5 client library) for Swift: the headers only.
// Nothing links libmosquitto: MosquittoLibrary.swift (module MQTT) opens libmosquitto.so.1 with
// dlopen when MQTT is first used and resolves the functions below with dlsym, so a binary that
// never uses MQTT does not load it (nor libssl and libcrypto, which it pulls in).
#ifndef NEARBY_CMOSQUITTO_SHIM_H
#define NEARBY_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>

// `name_fn`: a pointer to `name`, typed from the header's own declaration (cannot drift from it).
#define NEARBY_MOSQUITTO_FN(name) typedef __typeof__(name) *name##_fn
NEARBY_MOSQUITTO_FN(mosquitto_connack_string);
NEARBY_MOSQUITTO_FN(mosquitto_connect_bind_v5);
NEARBY_MOSQUITTO_FN(mosquitto_connect_v5_callback_set);
NEARBY_MOSQUITTO_FN(mosquitto_destroy);
NEARBY_MOSQUITTO_FN(mosquitto_disconnect);
NEARBY_MOSQUITTO_FN(mosquitto_int_option);
NEARBY_MOSQUITTO_FN(mosquitto_lib_init);
NEARBY_MOSQUITTO_FN(mosquitto_log_callback_set);
NEARBY_MOSQUITTO_FN(mosquitto_loop);
NEARBY_MOSQUITTO_FN(mosquitto_max_inflight_messages_set);
NEARBY_MOSQUITTO_FN(mosquitto_message_v5_callback_set);
NEARBY_MOSQUITTO_FN(mosquitto_new);
NEARBY_MOSQUITTO_FN(mosquitto_property_add_byte);
NEARBY_MOSQUITTO_FN(mosquitto_property_add_int32);
NEARBY_MOSQUITTO_FN(mosquitto_property_add_string);
NEARBY_MOSQUITTO_FN(mosquitto_property_free_all);
NEARBY_MOSQUITTO_FN(mosquitto_publish_v5);
NEARBY_MOSQUITTO_FN(mosquitto_publish_v5_callback_set);
NEARBY_MOSQUITTO_FN(mosquitto_reason_string);
NEARBY_MOSQUITTO_FN(mosquitto_strerror);
NEARBY_MOSQUITTO_FN(mosquitto_subscribe_v5);
NEARBY_MOSQUITTO_FN(mosquitto_threaded_set);
NEARBY_MOSQUITTO_FN(mosquitto_tls_set);
NEARBY_MOSQUITTO_FN(mosquitto_user_data_set);
NEARBY_MOSQUITTO_FN(mosquitto_username_pw_set);
NEARBY_MOSQUITTO_FN(mosquitto_will_set_v5);
#undef NEARBY_MOSQUITTO_FN

#endif
