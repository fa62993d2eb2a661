import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi, type CreatedPersonalToken } from "../../api";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { EmptyState } from "../../components/EmptyState";
import { CreateTokenForm } from "./CreateTokenForm";
import { NewTokenNotice } from "./NewTokenNotice";
import { TokenTable } from "./TokenTable";

export function TokensPage() {
  const api = useApi();
  const tokens = useQuery({ queryKey: queryKeys.tokens, queryFn: api.tokens.list });
  const [created, setCreated] = useState<CreatedPersonalToken | null>(null);

  return (
    <div className="page">
      <PageHeader
        title="Personal access tokens"
        subtitle="For scripts and the arbiter command line. A token acts with your rights; revoke it when it is no longer needed."
      />
      {created && <NewTokenNotice token={created} onDismiss={() => setCreated(null)} />}
      <CreateTokenForm onCreated={setCreated} />
      <div className="card">
        <h2 className="card-title">Your tokens</h2>
        {tokens.isPending && <Spinner label="Loading tokens…" />}
        {tokens.isError && <ErrorMessage error={tokens.error} title="Could not load tokens." />}
        {tokens.data && tokens.data.length === 0 && <EmptyState title="No tokens yet" />}
        {tokens.data && tokens.data.length > 0 && <TokenTable tokens={tokens.data} />}
      </div>
    </div>
  );
}
