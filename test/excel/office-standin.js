// Office.js stand-in for the task pane in Chromium (served in place of appsforoffice's office.js,
// after the bundled workbook model of excel-addin/test/support/excel-mock.ts as `ExcelMock`):
// - Excel.run over a FakeWorkbook that applies and records every write on sync (window.__wb);
// - the workbook and its startup behaviour kept in sessionStorage (a reload reopens it);
// - OfficeRuntime.storage kept in localStorage (survives a reload, as the add-in's storage does);
// - Office.onReady, Office.addin.setStartupBehavior/getStartupBehavior (recorded), and a
//   CustomFunctions that records the functions bundle's associations (window.__functions), so a
//   test can run a formula in the pane's runtime, as Excel's shared runtime does.
/* global ExcelMock */
(() => {
  // The workbook is kept in sessionStorage, so that a reload is the same workbook opened again.
  const saved = sessionStorage.getItem('workbook');
  const wb = saved ? ExcelMock.FakeWorkbook.restore(JSON.parse(saved)) : new ExcelMock.FakeWorkbook(['Sheet1']);
  wb.onSync = () => sessionStorage.setItem('workbook', JSON.stringify(wb.snapshot()));
  window.__wb = wb;
  window.Excel = wb.excel;
  const PREFIX = 'officeruntime:';
  window.OfficeRuntime = {
    storage: {
      getItem: async (k) => localStorage.getItem(PREFIX + k),
      setItem: async (k, v) => localStorage.setItem(PREFIX + k, String(v)),
      removeItem: async (k) => localStorage.removeItem(PREFIX + k),
      getKeys: async () =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith(PREFIX))
          .map((k) => k.slice(PREFIX.length)),
    },
  };
  window.__startup = JSON.parse(sessionStorage.getItem('startup') || '[]');
  let startup = window.__startup.at(-1) ?? 'None';
  // The ExcelApi sets this Excel has: Excel on the web's by default, fewer when a test stores `excelApi` (e.g. "1.5").
  const excelApi = Number((sessionStorage.getItem('excelApi') || '1.17').split('.')[1]);
  // Office's theme: a test stores `officeTheme` (its body and control colours) to open the pane in a dark theme.
  const officeTheme = JSON.parse(sessionStorage.getItem('officeTheme') || 'null');
  window.Office = {
    context: {
      ...(officeTheme ? { officeTheme } : {}),
      requirements: {
        isSetSupported: (set, v) => set === 'ExcelApi' && Number(String(v).split('.')[1] ?? 0) <= excelApi,
      },
    },
    StartupBehavior: { load: 'Load', none: 'None' },
    onReady: (cb) =>
      Promise.resolve({ host: 'Excel', platform: 'OfficeOnline' }).then((info) => (cb ? cb(info) : info)),
    addin: {
      setStartupBehavior: async (b) => {
        window.__startup.push(b);
        sessionStorage.setItem('startup', JSON.stringify(window.__startup));
        startup = b;
      },
      getStartupBehavior: async () => startup,
    },
  };
  window.__functions = {};
  window.CustomFunctions = {
    associate(id, fn) {
      if (typeof id === 'object' && id) Object.assign(window.__functions, id);
      else window.__functions[id] = fn;
    },
    Error: class {
      constructor(code, message) {
        this.code = code;
        this.message = message;
      }
    },
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' },
  };
})();
