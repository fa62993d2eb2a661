// ESLint flat config: the recommended JavaScript and TypeScript rules, the
// rules of hooks (with the React Compiler's checks) for the UI source, and no
// untranslated text on the screens that are translated (src/i18n).
import js from "@eslint/js";
import i18next from "eslint-plugin-i18next";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "src/api/schema.gen.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.flat["recommended-latest"].rules,
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // The annotator's, reviewer's and adjudicator's screens, sign-in and the account page
    // show no literal text: JSX text and the attributes people read or hear go through t().
    files: [
      "src/pages/project/{annotate,review,adjudicate,work}/**/*.tsx",
      "src/form/**/*.tsx",
      "src/media/**/*.tsx",
      "src/pages/{login,account}/**/*.tsx",
      "src/components/{ErrorMessage,Spinner,NewPasswordField}.tsx",
    ],
    ignores: ["**/*.test.tsx"],
    plugins: { i18next },
    rules: {
      "i18next/no-literal-string": [
        "error",
        {
          mode: "jsx-only",
          "jsx-attributes": { include: ["aria-label", "title", "placeholder", "alt", "label", "leaseText", "submitLabel"] },
          // note: keys, symbols and arrows (shortcut names, "—", "×", "‹1f") are not words to translate
          words: { exclude: ["[0-9!-/:-@[-`{-~\\s“”−]+", "[A-Z_-]+", "[—–×‹›…∞←→↑↓⌫⇧·]+.*", "\\d+f›?", "Shift\\+.*", "Ctrl\\+Enter", "Enter", "Esc", "Arbiter"] },
          callees: { exclude: ["i18n(ext)?", "t", "tr", "require", "addEventListener", "removeEventListener", "getElementById", "dispatch", "includes", "indexOf", "endsWith", "startsWith"] },
        },
      ],
    },
  },
  {
    files: ["e2e/**/*.mjs", "scripts/**/*.mjs", "*.config.{js,ts}"],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["e2e/**/*.mjs"],
    // page.evaluate callbacks run in the browser.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
