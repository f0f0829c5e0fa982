// header_cc_t.cc -- the public header from C++ (-std=c++17 -pedantic):
// it must compile, and its declarations must have C linkage so that
// this program links against the C library.  Prints TAP.
#include "exactgeo.h"
#include <cstdio>
#include <cstring>

int main()
{
    struct xg_ctx *ctx = xg_ctx_new();
    xg_set a = {};
    const double p[3] = {0, 0, 0}, q[3] = {1, 1, 1};
    int ok1 = ctx != nullptr && std::strcmp(xg_strerror(XG_EINVAL),
                                            "invalid argument") == 0;
    int ok2 = xg_set_push_segment(&a, p, q, 7, 0) == XG_OK && a.n == 1 &&
              a.fid[0] == 7;
    std::printf("%s 1 - C++: calls into the C library link and work\n",
                ok1 ? "ok" : "not ok");
    std::printf("%s 2 - C++: xg_set_push_segment from C++\n", ok2 ? "ok" : "not ok");
    std::printf("1..2\n");
    xg_set_free(&a);
    xg_ctx_free(ctx);
    return ok1 && ok2 ? 0 : 1;
}
