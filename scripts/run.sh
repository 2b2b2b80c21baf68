#!/usr/bin/env bash
# `make run`: seed the demo on first run, start the Firebase Auth Emulator
# and the server, print where to go. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."

export PORTICO_ADDR=${PORTICO_ADDR:-127.0.0.1:8080}
export PORTICO_ENVIRONMENT=${PORTICO_ENVIRONMENT:-Demo}
export NO_UPDATE_NOTIFIER=1 CI=true FIREBASE_CLI_DISABLE_UPDATE_CHECK=1
emulator_host=127.0.0.1:9099
mkdir -p data

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

wait_for() { # url seconds what
  for _ in $(seq 1 $(($2 * 5))); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "$3 did not start within $2 s; see data/*.log" >&2
  return 1
}

if curl -fsS -o /dev/null "http://$emulator_host/" 2>/dev/null; then
  echo "Something already listens on $emulator_host (another emulator?); stop it first." >&2
  exit 1
fi

if [ -n "${PORTICO_NETSUITE_ACCOUNT:-}" ]; then
  # Records come from NetSuite: only the demo users, roles and menus here.
  bin/portico roles import internal/demo/access.yaml
else
  bin/portico seed --if-empty
fi

echo "Starting the Firebase Auth Emulator on $emulator_host (log: data/emulator.log) ..."
tools/firebase/node_modules/.bin/firebase emulators:start --config tools/firebase/firebase.json \
  --only auth --project demo-portal >data/emulator.log 2>&1 &
pids+=($!)
wait_for "http://$emulator_host/" 60 "The auth emulator"
export PORTICO_IDENTITY_EMULATOR_HOST=$emulator_host
bin/portico emulator-accounts

bin/portico serve &
pids+=($!)
wait_for "http://$PORTICO_ADDR/api/v1/health" 30 "The server"

cat <<MSG

  Portico is running: http://$PORTICO_ADDR/
  Auth emulator:      http://$emulator_host/  (demo project demo-portal, tenant portico-demo)
  Data:               $(pwd)/data (delete it to start over)

  Demo accounts (password: portico-demo)
    ada.admin@portico.test     Ada Admin     Administrator, Project Manager, Accountant
    pete.pm@portico.test       Pete Manager  Project Manager
    sam.sso@portico.test       Sam Single    "Sign in with work account" (simulated Microsoft)
    lou.nolayout@portico.test  Lou Layout    a role without a menu layout
    nora.noroles@portico.test  Nora Noroles  no portal roles (is refused)

  Press Ctrl-C to stop.

MSG
wait -n "${pids[@]}"
