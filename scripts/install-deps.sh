#!/usr/bin/env bash
# Installs every Debian package redist needs to build, test, benchmark and replay. Idempotent:
# does nothing when all are present. Runs apt-get as root (directly, or through sudo).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libsimgrid-dev
  libboost-graph-dev libeigen3-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin libscalapack-openmpi-dev
  scalapack-mpi-test  # ScaLAPACK's own testers, prebuilt: ctest ScalapackDebianTestersPreloaded, ScalapackPblasTesterGeaddAsTran
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libjemalloc-dev
  python3 python3-matplotlib python3-yaml
  pybind11-dev python3-pybind11 python3-numpy python3-mpi4py python3-pytest  # the Python module (python/)
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -q "${missing[@]}"
