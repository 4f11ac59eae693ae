#!/usr/bin/env bash
# Make sure a Java runtime (17+) exists for the Spark tests, which start a local SparkSession.
# Installs Debian's `openjdk-17-jre-headless` only when no `java` is found; safe to run repeatedly.
set -euo pipefail
if command -v java >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-java: no java on PATH; install a Java 17 runtime (the Spark tests need it)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends openjdk-17-jre-headless >/dev/null
command -v java >/dev/null
