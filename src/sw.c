/* sw.c - shared helpers declared in sw.h. */
#include <stdio.h>
#include "sw.h"

int sw_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
