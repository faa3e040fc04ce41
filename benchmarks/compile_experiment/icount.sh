#!/bin/bash
# usage: icount.sh ROOT chars posts  -> instructions per audit (diff of n=50 and n=250)
r=$1; c=$2; p=$3; lo=${4:-50}; hi=${5:-250}
get() { RK_ROOT=$r valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null ${PY:-python} $(dirname $0)/icount_run.py $c $p $1 2>&1 | grep "I *refs" | awk '{gsub(",","",$4); print $4}'; }
a=$(get $lo); b=$(get $hi)
python3 -c "print('$r', $c, 'instr/audit', round(($b-$a)/($hi-$lo)))"
