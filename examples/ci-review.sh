#!/usr/bin/env bash
# A CI step: zero reviews the branch as {verdict, issues[]} under a budget and a deadline; the issues are printed,
# and the job fails when the verdict is "fail", or when zero gave no conforming answer (its exit code, 4 for a
# budget, the deadline or an answer out of schema). Extra arguments go to `zero exec` (a provider, a model).
#   BASE=origin/main MAX_BUDGET_USD=0.50 RUN_TIMEOUT=600 examples/ci-review.sh [zero exec flags]
#   ZERO: the command that runs zero (default: zero)
set -euo pipefail

base=${BASE:-origin/main}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/review.json" <<'JSON'
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "verdict": { "enum": ["pass", "fail"] },
    "issues": { "type": "array", "items": { "type": "string" } }
  },
  "required": ["verdict", "issues"],
  "additionalProperties": false
}
JSON

status=0
${ZERO:-zero} exec -o stream-json --output-schema "$work/review.json" \
  --max-budget-usd "${MAX_BUDGET_USD:-0.50}" --run-timeout "${RUN_TIMEOUT:-600}" "$@" \
  "Review the changes of this branch (git diff $base...HEAD) for bugs. Answer with a verdict, pass or fail, and the issues found." \
  > "$work/run.jsonl" || status=$?

jq -r 'select(.type == "usage" and .costUsd != null) | .costUsd' "$work/run.jsonl" | awk '{ spent += $1 } END { printf "review cost: $%.4f\n", spent }' >&2
if [ "$status" -ne 0 ]; then
  jq -r 'select(.type == "error") | "zero: \(.code): \(.message)"' "$work/run.jsonl" >&2
  exit "$status"
fi

answer=$(jq -c 'select(.type == "final") | .text | fromjson' "$work/run.jsonl")
jq -r '.issues[] | "- \(.)"' <<<"$answer"
verdict=$(jq -r '.verdict' <<<"$answer")
echo "review verdict: $verdict"
[ "$verdict" = pass ]
