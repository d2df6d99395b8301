#!/bin/sh
# Agent Plan's permission hook. Connect writes it into an agent's hook settings as
#   sh '<extension>/dist/answer.sh' <agent> '<folder>'
# It hands the agent's request (the JSON on its stdin) to the Agent Plan windows through
# <folder>, a folder only this user can open, and prints the answer the user gave there. It
# prints nothing, and the agent asks at its own prompt as it would without the hook, when the
# folder is not there, when no window takes the request within a second, when the time the
# window gave runs out, when the window withdraws it, and on any error: never fail closed.
# It needs only sh, cat, mv, rm, date and sleep (an agent guarantees no Node on a hook's PATH).
# The protocol (src/node/answers/answerSpool.ts reads and writes the other side):
#   req.<id>.json   the request, renamed into place whole          (this script)
#   ack.<id>        a window took it: the seconds it may wait       (a window)
#   ans.<id>.json   the answer to print; empty: print nothing       (a window)
#   own.<id>        which window took it (its process), for a reload (a window)
# where <id> is <agent>.<this shell's pid>.<seconds since the epoch>. All three go when it ends.
agent=$1
dir=$2
# Not taken: the request is read all the same (an agent may fail on a hook that does not read it).
skip() {
  cat >/dev/null 2>&1
  exit 0
}
case $agent in '' | *[!a-z-]*) skip ;; esac
[ -d "$dir" ] && [ -O "$dir" ] || skip
umask 077
id="$agent.$$.$(date +%s)"
req="$dir/req.$id.json"
ack="$dir/ack.$id"
ans="$dir/ans.$id.json"
tmp="$dir/tmp.$id"
own="$dir/own.$id"
trap 'rm -f "$req" "$ack" "$ans" "$tmp" "$own"' EXIT
trap 'exit 0' HUP INT TERM
nap() { sleep "$1" 2>/dev/null || sleep 1; }
cat >"$tmp" && mv "$tmp" "$req" || exit 0
n=0
while [ ! -f "$ack" ]; do
  n=$((n + 1))
  [ "$n" -gt 10 ] && exit 0
  nap 0.1
done
wait=$(cat "$ack" 2>/dev/null)
case $wait in '' | *[!0-9]*) exit 0 ;; esac
[ "${#wait}" -gt 4 ] && exit 0
n=0
limit=$((wait * 5))
while [ ! -f "$ans" ]; do
  n=$((n + 1))
  [ "$n" -gt "$limit" ] && exit 0
  nap 0.2
done
cat "$ans"
exit 0
