#!/usr/bin/env bash
# Checks the sample nginx site (docs/deployment/nginx-carcassonne.conf) end to end, by hand (not in
# CI: it needs nginx, `apt-get install nginx`): two `carcassonne serve` processes on the PostgreSQL
# database of CARC_TEST_PG_URI, nginx in front with the sample site (ports 18080/18443 and a
# throwaway self-signed certificate instead of 80/443 and Let's Encrypt): `nginx -t`, a game
# created through nginx (TLS, HTTP/2), its event stream read through nginx while a move is made
# straight on the second process, then kill -9 of the first process and requests through nginx.
#   scripts/test-postgres.sh --run scripts/check-nginx-site.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || { echo "error: nginx is not installed (apt-get install nginx)" >&2; exit 1; }
d=$(mktemp -d /tmp/carc-nginx.XXXXXX); mkdir -p $d/logs
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=test -days 1 -keyout $d/key.pem -out $d/cert.pem 2>/dev/null
db="$CARC_TEST_PG_URI"
pids=()
for p in 18081 18082; do
  build/carcassonne serve --host 127.0.0.1 --port $p --db "$db" --ai-delay 0 --allowed-host carcassonne.example.org \
    --trusted-proxy 127.0.0.1 --max-connections-per-ip 4096 --web $d/none > $d/serve-$p.log 2>&1 &
  pids+=($!)
done
sleep 2
sed -e "s#/etc/letsencrypt/live/carcassonne.example.org/fullchain.pem#$d/cert.pem#" \
    -e "s#/etc/letsencrypt/live/carcassonne.example.org/privkey.pem#$d/key.pem#" \
    -e "s#127.0.0.1:8081#127.0.0.1:18081#; s#127.0.0.1:8082#127.0.0.1:18082#" \
    -e "s#listen 443 ssl http2;#listen 18443 ssl http2;#; s#listen \[::\]:443 ssl http2;##; s#listen 80;#listen 18080;#; s#listen \[::\]:80;##" \
    docs/deployment/nginx-carcassonne.conf > $d/site.conf
printf 'pid %s/nginx.pid;\nerror_log %s/logs/error.log;\nevents {}\nhttp {\naccess_log off;\nclient_body_temp_path %s;\nproxy_temp_path %s;\ninclude %s/site.conf;\n}\n' $d $d $d $d $d > $d/nginx.conf
cleanup() {
  nginx -p $d -c $d/nginx.conf -s stop 2>/dev/null || true
  for p in "${pids[@]}"; do kill $p 2>/dev/null || true; wait $p 2>/dev/null || true; done
  rm -rf $d
}
trap cleanup EXIT
nginx -t -p $d -c $d/nginx.conf 2>&1 | tail -1
nginx -p $d -c $d/nginx.conf
sleep 0.5
C="curl -sk --resolve carcassonne.example.org:18443:127.0.0.1"
U=https://carcassonne.example.org:18443
$C $U/api/health; echo
g=$($C -X POST -H 'Content-Type: application/json' -d '{"players":[{"name":"A","type":"human"},{"name":"B","type":"human"}],"seed":3}' $U/api/games)
id=$(echo "$g" | python3 -c 'import sys,json; print(json.load(sys.stdin)["id"])')
tok=$(echo "$g" | python3 -c 'import sys,json; print(json.load(sys.stdin)["seats"][0]["token"])')
echo "game $id"
# a stream through nginx; a move straight to process 2 (not through nginx)
( $C -N --max-time 4 $U/api/games/$id/events > $d/stream.txt ) &
sp=$!
sleep 1
legal=$(curl -s -H 'Host: 127.0.0.1' http://127.0.0.1:18082/api/games/$id/legal)
mv=$(echo "$legal" | python3 -c 'import sys,json; l=json.load(sys.stdin); p=l["placements"][0]; print(json.dumps({"token":"'$tok'","x":p["x"],"y":p["y"],"rotation":p["rotation"],"turn":l["turn"]}))')
t0=$(date +%s.%N)
curl -s -o /dev/null -w "move via process 2: %{http_code}\n" -X POST -H 'Content-Type: application/json' -d "$mv" http://127.0.0.1:18082/api/games/$id/move
wait $sp || true
echo "events received through nginx: $(grep -c '^event: state' $d/stream.txt); turns: $(grep -o '"turn":[0-9]*' $d/stream.txt | sort -u | tr '\n' ' ')"
grep -q '"turn":1' $d/stream.txt || { echo "error: the move on process 2 never reached the stream through nginx" >&2; exit 1; }
# kill -9 one process: requests through nginx still answered
kill -9 ${pids[0]}
wait ${pids[0]} 2>/dev/null || true
ok=0; for i in 1 2 3 4 5 6; do s=$($C -o /dev/null -w "%{http_code}" $U/api/games/$id); [ "$s" = 200 ] && ok=$((ok+1)); done
echo "after kill -9 of process 1: $ok/6 GET through nginx answered 200"
[ "$ok" = 6 ] || { echo "error: requests failed after one process died" >&2; exit 1; }
echo "nginx site ok"
