# Shared by the CLI test scripts (sourced): a scratch directory $t removed at
# exit, a failure counter, expect and finish.

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect CODE PATTERN CMD...: CMD exits with CODE and its stderr ($t/err)
# matches PATTERN; its stdout goes to $t/stdout.
expect() {
  local code=$1 pat=$2
  shift 2
  "$@" >"$t/stdout" 2>"$t/err"
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "'$*' exited $rc, expected $code ($(head -c 300 "$t/err"))"
  grep -q -- "$pat" "$t/err" || fail "'$*': stderr lacks '$pat': $(head -c 300 "$t/err")"
  return 0
}

# finish NAME: report and exit 0 when every check passed, 1 otherwise.
finish() {
  if [ "$fails" -eq 0 ]; then echo "$1: all checks passed"; exit 0; fi
  echo "$1: $fails check(s) failed"
  exit 1
}
