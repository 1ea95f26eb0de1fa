import { equityChart } from "./src/report/equityChart.js";
const n = 200; const t = Array.from({length:n},(_,i)=>i*3600e3);
const s = (k:number)=>Array.from({length:n},(_,i)=>Math.exp(k*i/n));
const svg = await equityChart({time:t, series:{Q1:s(-0.2),Q2:s(-0.1),Q3:s(0),Q4:s(0.1),Q5:s(0.25)}},{logScale:true});
const y = svg.split('Y-axis')[1]!;
console.log([...y.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(m=>JSON.stringify(m[1])).slice(0,20).join(" "));
