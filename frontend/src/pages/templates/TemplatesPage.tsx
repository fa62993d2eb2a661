import { Route, Routes } from "react-router-dom";
import { TemplateList } from "./TemplateList";
import { TemplateDetailPage } from "./TemplateDetailPage";
import "./gallery.css";

/** /templates: the gallery of built-in templates, and one template with its samples. */
export function TemplatesPage() {
  return (
    <Routes>
      <Route index element={<TemplateList />} />
      <Route path=":id/*" element={<TemplateDetailPage />} />
    </Routes>
  );
}
