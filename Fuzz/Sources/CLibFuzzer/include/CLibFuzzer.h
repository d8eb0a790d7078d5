// libFuzzer's entry points (compiler-rt, linked by `-sanitize=fuzzer`): the fuzz targets' own
// `main` hands control to libFuzzer's driver with the input callback.
#ifndef NEARBY_CLIBFUZZER_H
#define NEARBY_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (the same one as libFuzzer's own `main`) with `callback` as the target.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
