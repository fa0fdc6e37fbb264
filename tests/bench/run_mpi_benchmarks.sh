#!/usr/bin/env bash
# The MPI backend's all-reduce and all-gather (1, 8, 64 MB) against raw MPI_Allreduce /
# MPI_Allgather, with 2 and 4 ranks (oversubscribed where there are fewer cores):
#
#   tests/bench/run_mpi_benchmarks.sh BUILD_DIR
#
# Build BUILD_DIR in Release for meaningful figures (the target shardscope-mpi-collectives-bench
# exists when the MPI backend is built). Further arguments go to the benchmark (--sizes-mb 1,8,
# --iterations-scale 0.5). The machine's load is printed before each run: with more ranks than
# cores, other work on the machine moves the figures a lot.
set -euo pipefail
if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
bench=$(cd "$1" && pwd)/tests/mpi/shardscope-mpi-collectives-bench
shift
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
for np in 2 4; do
  echo "# $np ranks, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  mpirun --oversubscribe -np "$np" "$bench" "$@"
done
