// A stand-in for a shared CUDA runtime, built as fake_cudart/libcudart.so.11.0
// for WaitsCupti.RuntimeVersionWithoutAskingTheRuntime: says it is 11.8 when
// asked and counts how often it was asked (the waits tool must not ask it
// inside cuInit, where the real one may hold its initialization lock).
extern "C" {
static int g_asked = 0;
__attribute__((visibility("default"))) int cudaRuntimeGetVersion(int* v) {
  ++g_asked;
  if (v) *v = 11080;
  return 0;
}
__attribute__((visibility("default"))) int addscope_fake_cudart_asked() {
  return g_asked;
}
}
