"""Advertising data builder: explicit AD structures, so tests know the exact bytes on the air."""

from __future__ import annotations

import uuid as uuid_module

BASE_UUID_SUFFIX = '-0000-1000-8000-00805F9B34FB'

AD_FLAGS = 0x01
AD_COMPLETE_16 = 0x03
AD_COMPLETE_32 = 0x05
AD_COMPLETE_128 = 0x07
AD_SHORT_NAME = 0x08
AD_COMPLETE_NAME = 0x09
AD_TX_POWER = 0x0A
AD_SERVICE_DATA_16 = 0x16
AD_SERVICE_DATA_32 = 0x20
AD_SERVICE_DATA_128 = 0x21
AD_MANUFACTURER = 0xFF

FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED = 0x06
LEGACY_MAX = 31


class AdvertisingError(ValueError):
    pass


def uuid_bytes(text: str) -> bytes:
    """Little-endian bytes of a UUID given as 4, 8 or 36 hex characters: 2, 4 or 16 bytes."""
    cleaned = text.strip()
    if len(cleaned) in (4, 8):
        return int(cleaned, 16).to_bytes(len(cleaned) // 2, 'little')
    return uuid_module.UUID(cleaned).bytes[::-1]


def structure(ad_type: int, payload: bytes) -> bytes:
    if len(payload) + 1 > 255:
        raise AdvertisingError(f'AD type 0x{ad_type:02x} payload too long ({len(payload)} bytes)')
    return bytes([len(payload) + 1, ad_type]) + payload


def build(
    *,
    flags: int | None = FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED,
    service_uuids: list[str] = (),
    name: str | None = None,
    short_name: bool = False,
    manufacturer: list[tuple[int, bytes]] = (),
    service_data: list[tuple[str, bytes]] = (),
    tx_power: int | None = None,
    limit: int = LEGACY_MAX,
) -> bytes:
    """Builds AD: flags, service UUID lists (one complete list per UUID size, in order of
    appearance), service data, manufacturer data, TX power, then the name."""
    data = b''
    if flags is not None:
        data += structure(AD_FLAGS, bytes([flags]))
    by_size: dict[int, bytes] = {}
    for text in service_uuids:
        encoded = uuid_bytes(text)
        by_size[len(encoded)] = by_size.get(len(encoded), b'') + encoded
    for size, ad_type in ((2, AD_COMPLETE_16), (4, AD_COMPLETE_32), (16, AD_COMPLETE_128)):
        if size in by_size:
            data += structure(ad_type, by_size[size])
    for text, payload in service_data:
        encoded = uuid_bytes(text)
        ad_type = {2: AD_SERVICE_DATA_16, 4: AD_SERVICE_DATA_32, 16: AD_SERVICE_DATA_128}[len(encoded)]
        data += structure(ad_type, encoded + payload)
    for company, payload in manufacturer:
        data += structure(AD_MANUFACTURER, company.to_bytes(2, 'little') + payload)
    if tx_power is not None:
        data += structure(AD_TX_POWER, tx_power.to_bytes(1, 'little', signed=True))
    if name is not None:
        data += structure(AD_SHORT_NAME if short_name else AD_COMPLETE_NAME, name.encode())
    if len(data) > limit:
        raise AdvertisingError(
            f'advertising data is {len(data)} bytes, more than the {limit} a legacy PDU carries: '
            f'{data.hex()} (move the name to the scan response or drop a field)'
        )
    return data
