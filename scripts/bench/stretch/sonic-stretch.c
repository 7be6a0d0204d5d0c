/* Time-stretches raw 48 kHz stereo float32 from stdin to stdout with libsonic at the speed given
   as the first argument: the libsonic candidate of the stretcher comparison (compare.sh). */
#include <sonic.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    sonicStream stream = sonicCreateStream(48000, 2);
    sonicSetSpeed(stream, (float)atof(argv[1]));
    float in[4096 * 2], out[8192 * 2];
    size_t frames;
    while ((frames = fread(in, sizeof(float) * 2, 4096, stdin)) > 0) {
        sonicWriteFloatToStream(stream, in, (int)frames);
        int got;
        while ((got = sonicReadFloatFromStream(stream, out, 8192)) > 0) fwrite(out, sizeof(float) * 2, (size_t)got, stdout);
    }
    sonicFlushStream(stream);
    int got;
    while ((got = sonicReadFloatFromStream(stream, out, 8192)) > 0) fwrite(out, sizeof(float) * 2, (size_t)got, stdout);
    sonicDestroyStream(stream);
    return 0;
}
