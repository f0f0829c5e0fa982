#!/bin/sh
# The GPU machine's run of bench_cpu (CPU engines only), as executed:
# C holds bench_cpu (bench/.libs/bench_cpu), cgal_pairs, libexactgeo.so.0,
# libgmp.so.10, libmpfr.so.6, libtbb.so.12 and the world map's dump
# (exactgeo redblue ... -al countries -bl states_provinces --dump, gzipped).
C=${C:-$PWD}
export LD_LIBRARY_PATH=$C/lib
gunzip -c $C/data/world.xgd.gz > /tmp/world.xgd
timeout 280 $C/bin/bench_cpu -n 2 -t 1,2,16 --world /tmp/world.xgd > $OUT/bench_cpu_16.txt 2>&1
# On the 2-core machine: bench/bench_cpu -n 2 -t 1,2 --world out/world.xgd
