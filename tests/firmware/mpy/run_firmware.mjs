// Runs a Python script under real MicroPython (v1.27, WebAssembly port) with
// the board firmware package copied in as /lib/buzzer (and fakehw.py, beside this file, as /lib/fakehw.py,
// firmware/rp2_model.py as /lib/rp2_model.py).
// usage: node run_firmware.mjs <firmware/buzzer dir> <script.py>
// Prints what the script prints; exits 1 if the script raised.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [pkgDir, script] = process.argv.slice(2);
if (!pkgDir || !script) {
  console.error("usage: node run_firmware.mjs <firmware/buzzer dir> <script.py>");
  process.exit(2);
}
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdirTree("/lib/buzzer");
for (const name of readdirSync(pkgDir)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile("/lib/buzzer/" + name, readFileSync(join(pkgDir, name)));
  }
}
// the shared stand-ins for machine and the USB link (fakehw.py, beside this file)
mp.FS.writeFile("/lib/fakehw.py", readFileSync(new URL("./fakehw.py", import.meta.url)));
// the rp2 stand-in of the PIO lockout's state machines (firmware/rp2_model.py)
mp.FS.writeFile("/lib/rp2_model.py", readFileSync(join(pkgDir, "..", "rp2_model.py")));
try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
