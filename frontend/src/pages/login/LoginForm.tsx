import { useState, type FormEvent } from "react";
import { Field } from "../../components/Field";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useTranslation } from "react-i18next";

interface LoginFormProps {
  onSubmit(email: string, password: string): Promise<unknown>;
}

/** Email and password form; shows the server's error when sign-in fails. */
export function LoginForm({ onSubmit }: LoginFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      await onSubmit(email.trim(), password);
    } catch (err) {
      setError(err);
      setPending(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} aria-label={t("login.signIn")}>
      <ErrorMessage error={error} />
      <Field
        label={t("login.email")}
        type="email"
        name="email"
        autoComplete="username"
        autoFocus
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label={t("login.password")}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? t("login.signingIn") : t("login.signIn")}
      </button>
    </form>
  );
}
