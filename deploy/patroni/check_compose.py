"""What deploy/patroni/docker-compose.yml is for, checked without a Docker engine (run by
deploy/check-compose.sh after Compose's own schema check).

It must describe the topology drill.sh runs: one etcd, two Patroni members rendered from the
same patroni.yml.in (synchronous_mode, use_pg_rewind), HAProxy sending clients to the primary
through Patroni's GET /primary check (the same check settings as the drill's haproxy.cfg.in),
NATS, and three crease cluster nodes whose database is reached through HAProxy.
"""

import re
import sys
from pathlib import Path
from urllib.parse import urlparse

import yaml

HERE = Path(__file__).resolve().parent
NODES = ["crease-1", "crease-2", "crease-3"]
MEMBERS = ["pg1", "pg2"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


compose = yaml.safe_load((HERE / "docker-compose.yml").read_text())
services = compose["services"]
check(
    set(services) == {"etcd", "haproxy", "crease-db", "nats", *MEMBERS, *NODES},
    f"services: {sorted(services)}",
)
for name, service in services.items():
    needs = service.get("depends_on", [])
    for target in needs:
        check(target in services, f"{name} depends on the unknown service {target}")

# The members: the template the drill renders, with each member's own name and address.
template = (HERE / "patroni.yml.in").read_text()
settings = yaml.safe_load(re.sub(r"@[A-Z_]+@", "x", template))
dcs = settings["bootstrap"]["dcs"]
check(dcs.get("synchronous_mode") is True, "patroni.yml.in: synchronous_mode must be on")
check(dcs["postgresql"].get("use_pg_rewind") is True, "patroni.yml.in: use_pg_rewind must be on")
check(
    dcs["loop_wait"] + 2 * dcs["retry_timeout"] <= dcs["ttl"],
    "patroni.yml.in: Patroni needs loop_wait + 2 * retry_timeout <= ttl",
)
placeholders = set(re.findall(r"@([A-Z_]+)@", template))
for name in MEMBERS:
    member = services[name]
    env = member["environment"]
    check(placeholders <= set(env), f"{name}: no value for {sorted(placeholders - set(env))}")
    check(env.get("NAME") == name and env.get("CONNECT_HOST") == name, f"{name}: NAME and CONNECT_HOST")
    check(env.get("ETCD_HOSTS") == "etcd:2379", f"{name}: etcd's address")
    check("render-patroni.sh" in " ".join(member["command"]), f"{name}: renders patroni.yml.in")
    check(member["depends_on"]["etcd"]["condition"] == "service_healthy", f"{name}: waits for etcd")
    check(
        any(volume.endswith(":" + env["RUN_DIR"]) for volume in member.get("volumes", [])),
        f"{name}: its data directory is a volume",
    )
    check("8008/health" in " ".join(member["healthcheck"]["test"]), f"{name}: Patroni's health check")
subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
check(services["pg1"]["environment"]["CLIENT_NET"] == subnet, "CLIENT_NET must be the compose network")

# HAProxy: the drill's check settings, and the two members on their REST port.
drill_cfg = (HERE / "haproxy.cfg.in").read_text()
compose_cfg = (HERE / "haproxy-compose.cfg").read_text()


def lines(cfg, keyword):
    return [line.strip() for line in cfg.splitlines() if line.strip().startswith(keyword)]


for keyword in ["option httpchk", "http-check expect", "timeout"]:
    check(
        lines(drill_cfg, keyword) == lines(compose_cfg, keyword),
        f"haproxy-compose.cfg's `{keyword}` lines differ from haproxy.cfg.in's",
    )
check(lines(compose_cfg, "option httpchk") == ["option httpchk GET /primary"], "the check is GET /primary")
[drill_default] = lines(drill_cfg, "default-server")
[compose_default] = lines(compose_cfg, "default-server")
check(
    compose_default.startswith(drill_default),
    f"haproxy-compose.cfg's default-server must start with the drill's: {drill_default}",
)
servers = re.findall(r"^\s*server\s+(\S+)\s+(\S+).*check port (\d+)", compose_cfg, re.MULTILINE)
check(
    servers == [(name, f"{name}:5432", "8008") for name in MEMBERS],
    f"haproxy-compose.cfg's servers: {servers}",
)
check(
    "./haproxy-compose.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in services["haproxy"].get("volumes", []),
    "haproxy mounts haproxy-compose.cfg where the image reads it",
)
bind = re.search(r"listen postgres_primary\s+bind :(\d+)", compose_cfg)
primary_port = bind.group(1) if bind else None

# crease: three cluster nodes on the crease database, through HAProxy.
for name in NODES:
    node = services[name]
    env = node["environment"]
    url = urlparse(env["DATABASE_URL"])
    check(
        (url.scheme, url.hostname, str(url.port), url.path) == ("postgres", "haproxy", primary_port, "/crease"),
        f"{name}: DATABASE_URL goes through HAProxy's primary port {primary_port}: {env['DATABASE_URL']}",
    )
    check(env.get("CREASE_NATS_URL") == "nats://nats:4222", f"{name}: CREASE_NATS_URL")
    check(env.get("CREASE_NODE_NAME") == name, f"{name}: CREASE_NODE_NAME")
    check("CREASE_LEASE_TTL_MS" in env, f"{name}: CREASE_LEASE_TTL_MS is set (see docs/cluster.md)")
    check(node.get("build") == "../..", f"{name}: the repository's image")
    check(
        node["depends_on"]["crease-db"]["condition"] == "service_completed_successfully",
        f"{name}: waits for its database",
    )
    test = node.get("healthcheck", {}).get("test")
    check(isinstance(test, list) and test[:3] == ["CMD", "crease", "health"], f"{name}: `crease health`")

host_ports = [port.split(":")[0] for service in services.values() for port in service.get("ports", [])]
check(len(host_ports) == len(set(host_ports)), f"a host port is published twice: {host_ports}")
main = yaml.safe_load((HERE.parent.parent / "docker-compose.yml").read_text())
main_ports = {port.split(":")[0] for service in main["services"].values() for port in service.get("ports", [])}
check(not main_ports & set(host_ports), f"host ports shared with ../../docker-compose.yml: {main_ports & set(host_ports)}")

if failures:
    print("deploy/patroni/docker-compose.yml:", *failures, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"deploy/patroni/docker-compose.yml: {sorted(services)}; wiring ok")
