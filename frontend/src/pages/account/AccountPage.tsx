import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ApiError, useApi, type User } from "../../api";
import { useCurrentUser } from "../../auth";
import { PageHeader } from "../../components/PageHeader";
import { Field } from "../../components/Field";
import { NewPasswordField } from "../../components/NewPasswordField";
import { ErrorMessage } from "../../components/ErrorMessage";
import { LOCALES, supportedLocale } from "../../i18n";

/** The signed-in person's account: who they are, their language, and a new password. */
export function AccountPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <div className="page">
      <PageHeader title={t("account.title")} subtitle={`${user.name} · ${user.email}`} />
      <LanguageForm />
      <ChangePasswordForm />
      <div className="card">
        <h2 className="card-title">{t("account.tokensTitle")}</h2>
        <p>
          {t("account.tokensBefore")}
          <Link to="/settings/tokens">{t("account.tokensLink")}</Link>
          {t("account.tokensAfter")}
        </p>
      </div>
    </div>
  );
}

/** The language of the interface for this person; saving it switches the screens at once. */
export function LanguageForm() {
  const { t } = useTranslation();
  const api = useApi();
  const user = useCurrentUser();
  const [done, setDone] = useState(false);
  const save = useMutation({
    mutationFn: (locale: User["locale"]) => api.updateMe({ locale }),
    onSuccess: () => setDone(true),
  });
  const browser = LOCALES.find((l) => l.code === (supportedLocale(navigator.language) ?? "en"))!;
  return (
    <div className="card form-card stack">
      <h2 className="card-title">{t("account.language")}</h2>
      {save.error && <ErrorMessage error={save.error} />}
      {done && !save.isPending && (
        <div className="notice notice-success" role="status">
          {t("account.languageSaved")}
        </div>
      )}
      <div className="field">
        <label htmlFor="account-locale">{t("account.language")}</label>
        <select
          id="account-locale"
          value={user.locale}
          disabled={save.isPending}
          onChange={(e) => {
            setDone(false);
            save.mutate(e.target.value as User["locale"]);
          }}
        >
          <option value="">{t("account.languageBrowser", { name: browser.name })}</option>
          {LOCALES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
        <small className="field-hint">{t("account.languageHelp")}</small>
      </div>
    </div>
  );
}

/** Changes the password with the current one; every other session ends. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const api = useApi();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const change = useMutation({
    mutationFn: () => api.account.changePassword(current, next),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setDone(true);
    },
  });
  const fields = change.error instanceof ApiError ? change.error.fieldErrors() : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    change.mutate();
  }

  return (
    <form className="card form-card stack" onSubmit={submit} aria-label={t("account.changePassword")}>
      <h2 className="card-title">{t("account.changePassword")}</h2>
      {done && (
        <div className="notice notice-success" role="status">
          {t("account.changed")}
        </div>
      )}
      {change.error && Object.keys(fields).length === 0 && <ErrorMessage error={change.error} />}
      <Field
        label={t("account.currentPassword")}
        type="password"
        autoComplete="current-password"
        required
        value={current}
        error={fields.current_password}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <NewPasswordField label={t("account.newPassword")} value={next} error={fields.new_password} extra={t("account.passwordTip")} onChange={(e) => setNext(e.target.value)} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? t("account.changing") : t("account.changePassword")}
        </button>
      </div>
    </form>
  );
}
