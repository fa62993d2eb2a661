import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./i18n"; // before the app renders: the strings of the browser's language
import { App } from "./App";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/components.css";
import "./styles/pages.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
