#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks for `npm test`: Debian's Chromium (widget and
# e2e tests), pgvector for the local PostgreSQL 15 server, espeak-ng and ffmpeg (the offline
# transcription tests and bench speak their videos), and nginx (the reverse-proxy test runs its own).
# Idempotent; needs root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
# The scanned-PDF tests draw their text with DejaVu Serif (OCR itself needs nothing from Debian).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] || need+=(fonts-dejavu-core)
[ -x /usr/bin/espeak-ng ] || need+=(espeak-ng)
[ -x /usr/bin/ffmpeg ] || need+=(ffmpeg)
# The provider fetch's HTTPS test makes a throwaway certificate.
[ -x /usr/bin/openssl ] || need+=(openssl)
# server/src/http/behind-nginx.int.test.ts starts nginx itself, with its own configuration and
# prefix on a loopback port: the package's system service is neither started nor enabled.
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ -f /usr/share/postgresql/15/extension/vector.control ] || need+=(postgresql-server-dev-15 make gcc)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  # policy-rc.d answering 101 keeps the packages' services (nginx's) from starting during the install.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  fi
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  if [[ " ${need[*]} " == *" nginx "* ]] && [ -d /run/systemd/system ]; then systemctl disable --quiet nginx || true; fi
fi

# Debian bookworm has no pgvector package: build trixie's source package against PG 15.
if [ ! -f /usr/share/postgresql/15/extension/vector.control ]; then
  W=$(mktemp -d); mkdir -p "$W/src" "$W/lists/partial" "$W/cache/archives/partial"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$W/src/trixie-src.sources"
  APTO=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$W/src" -o Dir::State::Lists="$W/lists" -o Dir::Cache="$W/cache")
  apt-get "${APTO[@]}" update -qq
  (cd "$W" && apt-get "${APTO[@]}" source --download-only pgvector >/dev/null)
  tar xzf "$W"/pgvector_*.orig.tar.gz -C "$W"
  make -s -C "$W"/pgvector-*/ PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config OPTFLAGS="" -j2 >/dev/null
  make -s -C "$W"/pgvector-*/ PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config install >/dev/null
  rm -rf "$W"
fi

pg_lsclusters -h 2>/dev/null | grep -q online || pg_ctlcluster --skip-systemctl-redirect 15 main start
