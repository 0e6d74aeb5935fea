#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// Placeholder; the transport fills this with a dlopen-based function table.
#include <curl/curl.h>
#endif
