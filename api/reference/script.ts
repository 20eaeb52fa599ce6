/** Starts Swagger UI on the page's document (`data-spec`), with try-it on. */
export const REFERENCE_SCRIPT = `window.addEventListener('DOMContentLoaded', () => {
  window.SwaggerUIBundle({
    url: document.body.dataset.spec,
    dom_id: '#reference',
    deepLinking: true,
    tryItOutEnabled: true,
    displayOperationId: true,
  });
});
`;
