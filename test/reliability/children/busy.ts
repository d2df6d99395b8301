// Child process: keeps one core busy (other work on the machine), until killed or for
// at most the given number of seconds.
//   busy <seconds>
const until = Date.now() + Number(process.argv[2] ?? 600) * 1000;
process.stdout.write('busy\n');
while (Date.now() < until) {
  // spin
}
