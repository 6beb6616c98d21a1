"""What docker-compose.yml is for, checked without a Docker engine (run by check-compose.sh).

The schema check (Compose's own `config -q`) cannot tell whether the file still does what the
docs say: that `docker compose up` is one node and Postgres, and that the cluster profile is
three nodes behind the HAProxy of deploy/haproxy.cfg, on a database no single-mode node uses.
"""

import re
import sys
from pathlib import Path
from urllib.parse import urlparse

import yaml

ROOT = Path(__file__).resolve().parent.parent
NODES = ["crease-1", "crease-2", "crease-3"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def database_of(service):
    return urlparse(service["environment"]["DATABASE_URL"]).path


compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
services = compose["services"]
default = {name for name, service in services.items() if not service.get("profiles")}
cluster = {name for name, service in services.items() if "cluster" in service.get("profiles", [])}

check(default == {"postgres", "crease"}, f"`docker compose up` starts {sorted(default)}")
check(
    cluster == {"cluster-db", "nats", "haproxy", *NODES},
    f"the cluster profile adds {sorted(cluster)}",
)

for name, service in services.items():
    needs = service.get("depends_on", [])
    for target in needs:
        check(target in services, f"{name} depends on the unknown service {target}")
        if name in default:
            check(target in default, f"default service {name} depends on {target}, outside the default")

# The crease images are bookworm-slim: CMD-SHELL runs dash there, which has no /dev/tcp, and
# the image has no curl or wget; the server's own `crease health` is what can ask it.
for name in ["crease", *NODES]:
    test = services[name].get("healthcheck", {}).get("test")
    if not test and name in NODES:
        test = compose.get("x-crease-node", {}).get("healthcheck", {}).get("test")
    check(
        isinstance(test, list) and test[:3] == ["CMD", "crease", "health"],
        f"{name}: the health check must run `crease health` (exec form), not {test!r}",
    )

single = services["crease"]
check("CREASE_NATS_URL" not in single["environment"], "the default node must stay single-node")
check("8080:8080" in single.get("ports", []), "the default node publishes 8080")

for name in NODES:
    node = services[name]
    env = node["environment"]
    check(env.get("CREASE_NATS_URL") == "nats://nats:4222", f"{name}: CREASE_NATS_URL")
    check(env.get("CREASE_NODE_NAME") == name, f"{name}: CREASE_NODE_NAME")
    check(env.get("CREASE_ADVERTISE_URL") == f"http://{name}:8080", f"{name}: CREASE_ADVERTISE_URL")
    check(env["DATABASE_URL"].startswith("postgres://"), f"{name}: cluster mode needs Postgres")
    check(
        database_of(node) != database_of(single),
        f"{name} shares its database with the single-mode node",
    )
    check("--log-json" in node["command"], f"{name}: --log-json")
    check("0.0.0.0:8080" in node["command"], f"{name}: listens on 8080")
    check(
        {"postgres", "nats", "cluster-db"} <= set(node["depends_on"]),
        f"{name}: waits for Postgres, NATS and its database",
    )
    check(node.get("build") == ".", f"{name}: the same image as the single node")

cfg = (ROOT / "deploy" / "haproxy.cfg").read_text()
haproxy = services["haproxy"]
check(
    "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in haproxy.get("volumes", []),
    "haproxy mounts deploy/haproxy.cfg where the image reads it",
)
servers = re.findall(r"^\s*server\s+(\S+)\s+(\S+)", cfg, re.MULTILINE)
check(
    servers == [(name, f"{name}:8080") for name in NODES],
    f"haproxy.cfg's servers are the three nodes on 8080: {servers}",
)
# The binds inside `.if defined(CREASE_TLS_CERT)` exist only when TLS is on, which is what
# deploy/docker-compose.tls.yml does: the base file publishes the others, the overlay those.
tls_blocks = re.findall(r"^\.if defined\(CREASE_TLS_CERT\)\n(.*?)^\.endif", cfg, re.MULTILINE | re.DOTALL)
tls_binds = {port for block in tls_blocks for port in re.findall(r"^\s*bind\s+:(\d+)", block, re.MULTILINE)}
binds = set(re.findall(r"^\s*bind\s+:(\d+)", cfg, re.MULTILINE)) - tls_binds
published = {port.split(":")[1] for port in haproxy.get("ports", [])}
check(binds <= published, f"haproxy binds {sorted(binds)} but publishes {sorted(published)}")
check("8090" in binds, "haproxy serves the cluster on 8090")
check(tls_binds == {"80", "443"}, f"haproxy's TLS binds are 80 and 443: {sorted(tls_binds)}")
check(
    re.search(r"^\s*bind :443 ssl crt \"\$\{CREASE_TLS_CERT\}\"", cfg, re.MULTILINE) is not None,
    "haproxy's :443 bind loads the certificate CREASE_TLS_CERT names",
)

tls = yaml.safe_load((ROOT / "deploy" / "docker-compose.tls.yml").read_text())
tls_haproxy = tls["services"]["haproxy"]
check(set(tls["services"]) == {"haproxy"}, "the TLS overlay changes only haproxy")
certificate = tls_haproxy["environment"]["CREASE_TLS_CERT"]
mounts = [volume.split(":") for volume in tls_haproxy.get("volumes", [])]
check(
    any(target == certificate.rsplit("/", 1)[0] and source == "./deploy/tls" and mode == "ro"
        for source, target, mode in mounts),
    f"the TLS overlay mounts deploy/tls read-only where CREASE_TLS_CERT ({certificate}) points",
)
tls_published = {port.split(":")[1]: port.split(":")[0] for port in tls_haproxy.get("ports", [])}
check(
    tls_published == {"80": "80", "443": "443"},
    f"the TLS overlay publishes 80 and 443 as themselves (the redirect keeps the Host): {tls_published}",
)

# The monitoring profile: Prometheus reads deploy/prometheus/ where its image looks, and
# scrapes exactly the crease services, each on the port it listens on.
monitoring = {name for name, service in services.items() if "monitoring" in service.get("profiles", [])}
check(monitoring == {"prometheus", "grafana"}, f"the monitoring profile adds {sorted(monitoring)}")
check(
    "./deploy/prometheus:/etc/prometheus:ro" in services["prometheus"].get("volumes", []),
    "prometheus mounts deploy/prometheus where its image reads prometheus.yml",
)
scrape = yaml.safe_load((ROOT / "deploy" / "prometheus" / "prometheus.yml").read_text())
targets = sorted(
    target
    for job in scrape["scrape_configs"]
    for static in job.get("static_configs", [])
    for target in static["targets"]
)
check(
    targets == sorted(f"{name}:8080" for name in ["crease", *NODES]),
    f"prometheus scrapes every crease service on 8080: {targets}",
)
check(
    (ROOT / "deploy" / "prometheus" / scrape["rule_files"][0]).exists(),
    "prometheus.yml's rule file exists beside it",
)
grafana_volumes = services["grafana"].get("volumes", [])
check(
    "./deploy/grafana/crease-dashboard.json:/var/lib/grafana/dashboards/crease.json:ro" in grafana_volumes
    and "./deploy/grafana/provisioning:/etc/grafana/provisioning:ro" in grafana_volumes,
    "grafana mounts the dashboard where its provisioning file looks",
)

host_ports = [
    port.split(":")[0]
    for service in [*services.values(), tls_haproxy]
    for port in service.get("ports", [])
]
check(len(host_ports) == len(set(host_ports)), f"a host port is published twice: {host_ports}")

if failures:
    print("docker-compose.yml:", *failures, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(
    f"docker-compose.yml: default {sorted(default)}; cluster adds {sorted(cluster)};"
    f" monitoring adds {sorted(monitoring)}; wiring ok"
)
