#!/usr/bin/env bash
# Checks the syntax of the deployment files in deploy/ with the tools
# Debian provides (systemd, nginx, prometheus' promtool); a tool that is
# not installed is skipped with a message. Exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
skip() { echo "deploy-check: SKIP $1: $2 not installed"; }
run() { # name, command...
	local name=$1
	shift
	if out=$("$@" 2>&1); then
		echo "deploy-check: ok   $name"
		[ -z "$out" ] || sed 's/^/    /' <<<"$out"
	else
		echo "deploy-check: FAIL $name"
		sed 's/^/    /' <<<"$out"
		failed=1
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# systemd: the unit's directives and sections. verify also wants the
# ExecStart binary to exist, so the unit is checked as a copy whose
# ExecStart points at a stand-in executable.
if command -v systemd-analyze >/dev/null; then
	printf '#!/bin/sh\n' >"$tmp/portico" && chmod +x "$tmp/portico"
	sed "s|^ExecStart=/usr/local/bin/portico|ExecStart=$tmp/portico|" deploy/portico.service >"$tmp/portico.service"
	# verify warns about a missing EnvironmentFile only at start; any
	# message about the unit itself fails the check.
	verify() {
		local out
		out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify "$tmp/portico.service" 2>&1) || { echo "$out"; return 1; }
		if grep -v -e '^$' <<<"$out" | grep -q "portico.service"; then
			echo "$out"
			return 1
		fi
	}
	run "systemd-analyze verify deploy/portico.service" verify
else
	skip "deploy/portico.service" systemd-analyze
fi

# nginx: the server blocks inside a small http wrapper, with throwaway
# self-signed certificates where the file names the real ones.
if ! command -v nginx >/dev/null && [ -x /usr/sbin/nginx ]; then PATH=$PATH:/usr/sbin; fi
if command -v nginx >/dev/null; then
	if command -v openssl >/dev/null; then
		openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=portal.example.com \
			-keyout "$tmp/privkey.pem" -out "$tmp/fullchain.pem" >/dev/null 2>&1
		sed -e "s|/etc/ssl/portico/|$tmp/|" deploy/nginx.conf >"$tmp/portico.conf"
		mime=/etc/nginx/mime.types
		[ -f "$mime" ] || mime=/dev/null
		cat >"$tmp/nginx.conf" <<-CONF
			pid $tmp/nginx.pid;
			error_log stderr;
			events {}
			http {
			    include $mime;
			    access_log off;
			    client_body_temp_path $tmp;
			    proxy_temp_path $tmp;
			    fastcgi_temp_path $tmp;
			    uwsgi_temp_path $tmp;
			    scgi_temp_path $tmp;
			    include $tmp/portico.conf;
			}
		CONF
		run "nginx -t deploy/nginx.conf" nginx -t -q -p "$tmp" -c "$tmp/nginx.conf"
	else
		skip "deploy/nginx.conf (certificates)" openssl
	fi
else
	skip "deploy/nginx.conf" nginx
fi

# Prometheus: the scrape config (with the rule file and token file it
# names pointed at this tree's and a stand-in) and the alert rules.
if command -v promtool >/dev/null; then
	printf 'a-token-of-at-least-32-characters-long\n' >"$tmp/token"
	sed -e "s|/etc/prometheus/portico-alerts.yml|$PWD/deploy/alerts.yml|" \
		-e "s|/etc/prometheus/portico-metrics-token|$tmp/token|" deploy/prometheus.yml >"$tmp/prometheus.yml"
	run "promtool check config deploy/prometheus.yml" promtool check config "$tmp/prometheus.yml"
	run "promtool check rules deploy/alerts.yml" promtool check rules deploy/alerts.yml
else
	skip "deploy/prometheus.yml, deploy/alerts.yml" promtool
fi

exit $failed
