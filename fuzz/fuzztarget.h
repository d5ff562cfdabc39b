#pragma once
// Every fuzz target defines LLVMFuzzerTestOneInput and, optionally, LLVMFuzzerInitialize.
// The same object is linked either with libFuzzer (clang, `make fuzz`) or with
// fuzz/replaymain.cpp (any compiler, the short pass `make test` runs).
//
// Contract of a target: it never crashes, leaks, hangs or trips a sanitizer on any input,
// and it aborts when an invariant that a user would notice is broken (a secret in a
// message, for instance), so the engine records the input as a finding.

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
