#!/usr/bin/env bash
# Checks the deployment artefacts offline: docker-compose.yml with Debian's docker-compose
# (`config -q`, no Docker engine needed) and every YAML under k8s/ with scripts/check-k8s.ts
# (Kubernetes schemas from the kubernetes-types devDependency, strict, plus cross-checks).
#
#   bash scripts/check-deploy.sh
#
# Needs: docker-compose (apt-get install -y --no-install-recommends docker-compose) and the
# project's devDependencies (npm ci). A missing tool is an error, never a skip.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() {
  echo "check-deploy: $*" >&2
  exit 1
}

# --- docker-compose.yml ------------------------------------------------------------------------
command -v docker-compose >/dev/null 2>&1 ||
  fail "docker-compose not found: apt-get install -y --no-install-recommends docker-compose"

# An empty --env-file, so that a developer's .env cannot change the outcome.
no_env="$(mktemp)"
trap 'rm -f "$no_env"' EXIT

# A dummy secret (>= 32 characters, as the apps demand in production) for the interpolation.
AUTH_JWT_SECRET="check-deploy-dummy-secret-not-for-use-0123456789" \
DEVICE_JWT_SECRET="check-deploy-dummy-device-secret-not-for-use-0123" \
DATA_ENCRYPTION_KEY="Y2hlY2stZGVwbG95LWR1bW15LWtleS0zMi1ieXRlcyE=" \
  docker-compose --env-file "$no_env" -f docker-compose.yml config -q ||
  fail "docker-compose.yml is invalid"

# The secret must be required, not defaulted: without it, interpolation has to fail.
if env -u AUTH_JWT_SECRET DEVICE_JWT_SECRET=x DATA_ENCRYPTION_KEY=x docker-compose --env-file "$no_env" -f docker-compose.yml config -q >/dev/null 2>&1; then
  fail "docker-compose.yml accepts a missing AUTH_JWT_SECRET: use \${AUTH_JWT_SECRET:?...}"
fi
echo "check-deploy: docker-compose.yml is valid ($(docker-compose version --short))"

# --- k8s/ --------------------------------------------------------------------------------------
[ -x node_modules/.bin/ts-node ] || fail "node_modules/.bin/ts-node not found: run npm ci"
node_modules/.bin/ts-node --transpile-only scripts/check-k8s.ts k8s ||
  fail "k8s/ manifests are invalid"

echo "check-deploy: all deployment artefacts are valid"
