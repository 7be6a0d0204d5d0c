// Thin shim over libpulse's asynchronous API (threaded main loop), which PipeWire also serves.
#ifndef TONEARM_CPULSE_SHIM_H
#define TONEARM_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#endif
