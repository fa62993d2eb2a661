import { Outlet } from "react-router-dom";
import { TopBar } from "./TopBar";

/** The frame of every signed-in page: top bar, then the routed page. */
export function AppLayout() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
