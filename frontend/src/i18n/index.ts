// The interface's languages. The strings live in one JSON file per locale (en.json,
// zh-CN.json), grouped by screen; i18n.test.ts fails when a key is missing from either.
// Before sign-in the browser's language applies (English otherwise); once signed in, the
// user's own locale does (useUserLocale).
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import en from "./en.json";
import zhCN from "./zh-CN.json";

/** The locales the interface is translated into, with their names in their own language. */
export const LOCALES = [
  { code: "en", name: "English" },
  { code: "zh-CN", name: "简体中文" },
] as const;

export type Locale = (typeof LOCALES)[number]["code"];

/** The supported locale for a browser or stored language tag; any Chinese reads Simplified. */
export function supportedLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const t = tag.toLowerCase();
  if (t === "zh" || t.startsWith("zh-")) return "zh-CN";
  if (t === "en" || t.startsWith("en-")) return "en";
  return null;
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, "zh-CN": { translation: zhCN } },
    supportedLngs: LOCALES.map((l) => l.code),
    fallbackLng: "en",
    load: "currentOnly",
    // note: the signed-in user's locale is stored on the server; the browser keeps none
    detection: { order: ["navigator"], caches: [], convertDetectedLanguage: (lng: string) => supportedLocale(lng) ?? lng },
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    initAsync: false,
  });

/** The active language as a BCP 47 tag for Intl. */
export function activeLocale(): Locale {
  return supportedLocale(i18n.resolvedLanguage ?? i18n.language) ?? "en";
}

export default i18n;

i18n.on("languageChanged", (lng) => {
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});
