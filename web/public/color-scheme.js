// Sets the colour scheme before the first paint (no flash of the wrong theme): the choice
// stored by Settings (web/src/lib/colorScheme.ts, same key), else the system's. A file rather
// than an inline script, which the Content-Security-Policy (api/static.ts) does not allow.
try {
  var stored = localStorage.getItem("pressa.color-scheme");
  var scheme = stored === "light" || stored === "dark" ? stored
    : matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  document.documentElement.setAttribute("data-mantine-color-scheme", scheme);
} catch (e) {}
