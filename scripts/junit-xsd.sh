#!/usr/bin/env bash
# Puts the Jenkins xunit schema of JUnit XML (junit-10.xsd) at .tmp/junit-xsd/junit-10.xsd, for
# the test that validates suture's results.xml against it. pytest's source distribution ships the
# schema among its own test files; it is taken from there, never committed here.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tmp/junit-xsd
[ -f "$dest/junit-10.xsd" ] && exit 0
version=8.3.4
mkdir -p "$dest"
python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$dest" "pytest==$version"
tar -xzf "$dest/pytest-$version.tar.gz" -C "$dest" --strip-components=3 \
  "pytest-$version/testing/example_scripts/junit-10.xsd"
rm -f "$dest/pytest-$version.tar.gz"
