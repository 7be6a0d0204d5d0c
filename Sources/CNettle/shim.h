// GNU Nettle's SHA-2 and HMAC for the digests Tonearm computes (cache names, downloaded files
// checked against their feed's SRI digest, the analytics pseudonym): the headers as they are. Nettle
// names its functions through macros Swift does not import, so Swift calls the nettle_-prefixed
// names directly.
#ifndef TONEARM_NETTLE_SHIM_H
#define TONEARM_NETTLE_SHIM_H
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#endif
