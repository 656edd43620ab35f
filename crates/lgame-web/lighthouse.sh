#!/bin/bash
# Lighthouse 12 against a running `lgame serve` (release build): /#/play and a game page,
# desktop and phone; prints the four scores and the main performance figures, and the
# audits that lost points. Lighthouse is not one of the project's dependencies: it is
# installed on first use into $LH (default /tmp/lh), with Debian's chromium.
#   crates/lgame-web/lighthouse.sh [http://127.0.0.1:8183]
set -e
base=${1:-http://127.0.0.1:8183}
LH=${LH:-/tmp/lh}
mkdir -p "$LH"
[ -x "$LH/node_modules/.bin/lighthouse" ] || npm install --prefix "$LH" --no-audit --no-fund lighthouse@12 >/dev/null
cd "$LH"
for page in play game; do
  for form in desktop phone; do
    # A game of its own for each run: each run's browser is new, and a token seats one.
    game=$(curl -s -X POST -H 'Content-Type: application/json' -d '{"red":"human","blue":"beginner"}' $base/api/games)
    id=$(echo "$game" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    token=$(echo "$game" | python3 -c 'import json,sys; print(json.load(sys.stdin)["players"]["red"]["token"])')
    if [ $page = play ]; then url="$base/#/play"; else url="$base/#/game/$id?red=$token"; fi
    preset=""; [ $form = desktop ] && preset="--preset=desktop"
    CHROME_PATH=/usr/bin/chromium node_modules/.bin/lighthouse "$url" $preset \
      --chrome-flags="--headless=new --no-sandbox" --output=json \
      --output-path="$LH/$page-$form.json" --quiet
    python3 - "$LH/$page-$form.json" <<'P'
import json, sys
path = sys.argv[1]
name = path.rsplit('/', 1)[-1][:-5]
r = json.load(open(path))
c = r['categories']; a = r['audits']
scores = ' '.join(f"{k}={round(v['score']*100)}" for k, v in c.items())
figs = ' '.join(f"{k}={a[k]['displayValue']}" for k in ['first-contentful-paint','largest-contentful-paint','total-blocking-time','cumulative-layout-shift','speed-index'])
print(f'{name}: {scores} | {figs}')
for k, v in c.items():
    for ref in v['auditRefs']:
        au = a[ref['id']]
        if ref['weight'] > 0 and au['score'] is not None and au['score'] < 1:
            print(f'   {k}: {ref["id"]} score={au["score"]} {au.get("displayValue","")}')
P
  done
done
