import type { InputHTMLAttributes } from "react";
import { Field } from "./Field";
import { useTranslation } from "react-i18next";


interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, "type"> {
  label: string;
  error?: string;
  /** A sentence after the rule (e.g. how to pass the password on). */
  extra?: string;
}

/**
 * A new password with the rule shown once: under the field before submitting,
 * replaced by the server's refusal (which states the rule) when there is one.
 * No browser-side length check, so the rule never appears a second time in a
 * browser bubble.
 */
export function NewPasswordField({ error, extra, ...input }: Props) {
  const { t } = useTranslation();
  // The password rule the server applies, as the person reads it before submitting.
  const rule = t("account.passwordRule");
  return <Field type="password" autoComplete="new-password" required {...input} error={error} hint={error ? undefined : extra ? `${rule} ${extra}` : rule} />;
}
