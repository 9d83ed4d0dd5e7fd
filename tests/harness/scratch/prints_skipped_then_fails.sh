#!/usr/bin/env bash
echo "SKIPPED: no mpiexec"
exit 1
