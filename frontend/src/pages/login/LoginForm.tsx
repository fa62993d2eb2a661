import { useState, type FormEvent } from "react";
import { Field } from "../../components/Field";
import { ErrorMessage } from "../../components/ErrorMessage";

interface LoginFormProps {
  onSubmit(email: string, password: string): Promise<unknown>;
}

/** Email and password form; shows the server's error when sign-in fails. */
export function LoginForm({ onSubmit }: LoginFormProps) {
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
    <form className="stack" onSubmit={submit} aria-label="Sign in">
      <ErrorMessage error={error} />
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        autoFocus
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
