// Empty: CLibFuzzer only declares libFuzzer's driver (include/CLibFuzzer.h).
#include "CLibFuzzer.h"
