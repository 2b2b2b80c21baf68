#!/usr/bin/env bash
# Runs a command with the Firebase Auth Emulator up (firebase emulators:exec):
# the command sees FIREBASE_AUTH_EMULATOR_HOST, and its exit code comes back.
# Usage: scripts/with-emulator.sh <command> [args...]
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=$(printf '%q ' "$@")
export NO_UPDATE_NOTIFIER=1 CI=true FIREBASE_CLI_DISABLE_UPDATE_CHECK=1
exec tools/firebase/node_modules/.bin/firebase emulators:exec \
  --config tools/firebase/firebase.json --only auth --project demo-portal "$cmd"
