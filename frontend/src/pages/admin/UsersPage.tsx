import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { queryKeys, useApi } from "../../api";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { ErrorMessage } from "../../components/ErrorMessage";
import { CreateUserForm } from "./CreateUserForm";
import { UserActions } from "./UserActions";

export function UsersPage() {
  const api = useApi();
  const [creating, setCreating] = useState(false);
  const users = useQuery({ queryKey: queryKeys.users, queryFn: api.users.list });

  return (
    <div className="page">
      <PageHeader
        title="Users"
        subtitle="Everyone with an account on this server."
        actions={
          !creating && (
            <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
              New user
            </button>
          )
        }
      />
      {creating && <CreateUserForm onDone={() => setCreating(false)} />}
      {users.isPending && <Spinner label="Loading users…" />}
      {users.isError && <ErrorMessage error={users.error} title="Could not load users." />}
      {users.data && (
        <div className="card">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Id</th>
                <th scope="col">Access</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <tr key={u.id}>
                  <td>{u.name}</td>
                  <td>{u.email}</td>
                  <td>
                    <code>{u.id}</code>
                  </td>
                  <td>
                    {u.is_admin ? <span className="badge badge-admin">admin</span> : <span className="muted">user</span>}
                    {u.disabled && <span className="badge"> disabled</span>}
                  </td>
                  <td className="cell-actions">
                    <UserActions user={u} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
