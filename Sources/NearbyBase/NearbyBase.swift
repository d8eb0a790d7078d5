// NearbyBase: the pure helpers every module may use — hex text, a byte reader and writer,
// durations in seconds, decimal text. No imports at all: no Foundation, no C modules, no libm
// (the pure codecs link without libm; see Tests/NearbyBaseTests).
