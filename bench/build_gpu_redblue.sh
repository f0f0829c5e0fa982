#!/bin/sh
# Builds gen_maps, bench_redblue and redblue_gpu_t with the GPU red/blue
# engine into DIR (default .carry/redblue), for the GPU machine: static
# cudart and GMP, sm_90; libgeos_c and libgeos copied beside them.
# Run from the source root after ./configure (for config.h).
set -e
out=${1:-.carry/redblue}
mkdir -p "$out/obj"
CFLAGS="-std=c11 -O2 -Wall -Wextra -ffp-contract=off -pthread -DXG_HAVE_CUDA -Isrc -I."
for f in src/*.c; do
  gcc $CFLAGS -c "$f" -o "$out/obj/$(basename "$f" .c).o"
done
NV="nvcc -O3 -arch=sm_90 -std=c++17 -Isrc -Xcompiler -Wall,-ffp-contract=off"
$NV -c cuda/redblue_gpu.cu -o "$out/obj/redblue_gpu.o"
$NV -c cuda/redblue_solo.cu -o "$out/obj/redblue_solo.o"
LIBS="/usr/lib/x86_64-linux-gnu/libgmp.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -lm"
gcc $CFLAGS -c bench/gen_maps.c -o "$out/obj/gen_maps.o"
gcc $CFLAGS $(geos-config --cflags) -c bench/bench_redblue.c -o "$out/obj/bench_redblue.o"
gcc $CFLAGS -Itests -c tests/redblue_gpu_t.c -o "$out/obj/redblue_gpu_t.o"
LIBOBJ=$(ls "$out"/obj/*.o | grep -v -e gen_maps.o -e bench_redblue.o -e redblue_gpu_t.o)
g++ -o "$out/gen_maps" "$out/obj/gen_maps.o" $LIBOBJ $LIBS
g++ -o "$out/redblue_gpu_t" "$out/obj/redblue_gpu_t.o" $LIBOBJ $LIBS
g++ -o "$out/bench_redblue" "$out/obj/bench_redblue.o" $LIBOBJ $(geos-config --clibs) $LIBS -Wl,-rpath,'$ORIGIN'
cp -L /usr/lib/x86_64-linux-gnu/libgeos_c.so.1 "$out/"
cp -L "$(ldd "$out/bench_redblue" | awk '/libgeos\.so/ {print $3}')" "$out/"
rm -rf "$out/obj"
ls -la "$out"
